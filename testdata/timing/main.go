// Command timing calls functions whose durations are known or measured,
// for the timing tests (tests/stubs/t_timing.sh): a 10 ms sleep, a busy loop,
// recursion, 1000 goroutines sleeping across threads, panics recovered
// mid-call, recursion deep enough to move the stack, a jump-table switch,
// runtime.Goexit, and crypto/sha256, whose assembly block function has a
// stack check but uses R14 (g in Go code) as a scratch register. Standard output is deterministic; with TIMING_OUT set,
// the program also writes what it measured itself (time.Now) there as JSON.
//
// Functions whose timing is asserted call rare() behind a flag that is
// never set, so that the compiler gives them a stack check.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/ioutil"
	"os"
	"runtime"
	"sync"
	"time"
)

var never bool

func rare() { fmt.Fprintln(os.Stderr, "never") }

//go:noinline
func sleep10ms() {
	if never {
		rare()
	}
	t := time.Now()
	time.Sleep(10 * time.Millisecond)
	inner.add(&inner.sleep10ms, t)
}

//go:noinline
func spin(n int) int {
	if never {
		rare()
	}
	t := time.Now()
	s := 0
	for i := 0; i < n; i++ {
		s += i*i ^ (s >> 3)
	}
	inner.add(&inner.spin, t)
	return s
}

// work is short and steady, and called often: enough calls for sampled
// timing to be checked against the program's own mean.
//
//go:noinline
func work(n int) int {
	if never {
		rare()
	}
	t := time.Now()
	s := 0
	for i := 0; i < n; i++ {
		s += i ^ (s >> 1)
	}
	inner.workEach = append(inner.workEach, time.Since(t).Nanoseconds())
	return s
}

//go:noinline
func fib(n int) int {
	if never {
		rare()
	}
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func fibRoot() int {
	if never {
		rare()
	}
	t := time.Now()
	r := fib(25)
	inner.add(&inner.fibRoot, t)
	return r
}

//go:noinline
func nap() {
	if never {
		rare()
	}
	t := time.Now()
	time.Sleep(2 * time.Millisecond)
	runtime.Gosched()
	inner.add(&inner.nap, t)
}

//go:noinline
func mayPanic(i int) int {
	if never {
		rare()
	}
	if i%2 == 1 {
		panic(i)
	}
	return i
}

//go:noinline
func guard(i int) (r int) {
	if never {
		rare()
	}
	defer func() {
		if recover() != nil {
			r = -1
		}
	}()
	return mayPanic(i)
}

//go:noinline
func deep(n int) int {
	var pad [256]byte
	if never {
		rare()
	}
	pad[n%256] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return deep(n-1) + int(pad[n%256])
}

//go:noinline
func deepRoot() int {
	if never {
		rare()
	}
	t := time.Now()
	r := deep(20000)
	inner.add(&inner.deepRoot, t)
	return r
}

//go:noinline
func classify(x int) int {
	if never {
		rare()
	}
	switch x {
	case 0:
		return 3
	case 1:
		return 1
	case 2:
		return 4
	case 3:
		return 1
	case 4:
		return 5
	case 5:
		return 9
	case 6:
		return 2
	case 7:
		return 6
	case 8:
		return 5
	case 9:
		return 3
	case 10:
		return 5
	case 11:
		return 8
	}
	return -1
}

//go:noinline
func exitNow() {
	if never {
		rare()
	}
	runtime.Goexit()
}

//go:noinline
func goexitWorker(wg *sync.WaitGroup) {
	defer wg.Done()
	if never {
		rare()
	}
	exitNow()
}

//go:noinline
func afterGoexit(i int) int {
	if never {
		rare()
	}
	return i * 2
}

// hashes runs sha256's assembly block function many times.
func hashes() [32]byte {
	data := make([]byte, 1<<16)
	for i := range data {
		data[i] = byte(i * 7)
	}
	sum := sha256.Sum256(data)
	for i := 0; i < 200; i++ {
		sum = sha256.Sum256(append(data[:1000], sum[:]...))
	}
	return sum
}

// inner holds the same functions timed from inside (time.Now as the body starts
// and before it returns), summed. gostat's window (the call, from entry to
// return) lies between this and the caller's time.Now around the call, so
// tests/stubs/t_timing.sh can bracket gostat's times, however loaded the machine.
type innerTimes struct {
	mu                                      sync.Mutex
	sleep10ms, spin, fibRoot, nap, deepRoot time.Duration
	workEach                                []int64 // every call of work, in call order
}

var inner innerTimes

// add adds the time since start to *sum (nap runs on 1000 goroutines).
func (in *innerTimes) add(sum *time.Duration, start time.Time) {
	d := time.Since(start)
	in.mu.Lock()
	*sum += d
	in.mu.Unlock()
}

// measured holds what the program timed itself, in nanoseconds: around
// each call (the caller's view) and inside it (inner).
type measured struct {
	Sleep10msMean float64 `json:"sleep10ms_mean_ns"`
	SpinMean      float64 `json:"spin_mean_ns"`
	WorkMean      float64 `json:"work_mean_ns"`
	WorkMin       float64 `json:"work_min_ns"`
	WorkEach      []int64 `json:"work_each_ns"` // every call of work, in call order
	FibRoot       float64 `json:"fibroot_ns"`
	NapMean       float64 `json:"nap_mean_ns"`
	DeepRootMean  float64 `json:"deeproot_mean_ns"`
	// inner: sums over all calls, and work's calls one by one
	InnerSleep10ms int64   `json:"inner_sleep10ms_ns"`
	InnerSpin      int64   `json:"inner_spin_ns"`
	InnerFibRoot   int64   `json:"inner_fibroot_ns"`
	InnerNap       int64   `json:"inner_nap_ns"`
	InnerDeepRoot  int64   `json:"inner_deeproot_ns"`
	InnerWorkEach  []int64 `json:"inner_work_each_ns"`
}

func meanOf(n int, f func()) float64 {
	mean, _ := meanMinOf(n, f)
	return mean
}

func meanMinOf(n int, f func()) (mean, min float64) {
	mean, min, _ = meanMinEach(n, f)
	return mean, min
}

// meanMinEach also returns every call's duration: the sampled timing test
// bounds gostat's mean of the calls it timed by the fastest and slowest
// calls the program saw.
func meanMinEach(n int, f func()) (mean, min float64, each []int64) {
	var total time.Duration
	least := time.Duration(1<<63 - 1)
	each = make([]int64, n)
	for i := 0; i < n; i++ {
		t := time.Now()
		f()
		d := time.Since(t)
		each[i] = d.Nanoseconds()
		total += d
		if d < least {
			least = d
		}
	}
	return float64(total.Nanoseconds()) / float64(n), float64(least.Nanoseconds()), each
}

func naps() float64 {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total time.Duration
	base := runtime.NumGoroutine()
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			nap()
			d := time.Since(t)
			mu.Lock()
			total += d
			mu.Unlock()
		}()
	}
	wg.Wait()
	waitGone(base)
	return float64(total.Nanoseconds()) / 1000
}

// waitGone waits until at most base goroutines are left. wg.Wait returns
// once the last deferred wg.Done has counted down, before that call has
// returned: its goroutine may not run again before the program exits (a
// loaded machine can leave its thread waiting that long), and a call that
// never returns is counted but cannot be timed, which would make the runs
// of tests/stubs/t_timing.sh disagree by one timed call. A goroutine leaves the
// count only after its last deferred call has returned.
func waitGone(base int) {
	for runtime.NumGoroutine() > base {
		time.Sleep(time.Millisecond)
	}
}

func goexits() int {
	var wg sync.WaitGroup
	base := runtime.NumGoroutine()
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go goexitWorker(&wg)
	}
	wg.Wait()
	waitGone(base)
	sum := 0
	var mu sync.Mutex
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			v := afterGoexit(i)
			mu.Lock()
			sum += v
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	waitGone(base)
	return sum
}

func main() {
	var m measured
	m.Sleep10msMean = meanOf(20, sleep10ms)
	spins := 0
	m.SpinMean = meanOf(50, func() { spins += spin(2000000) & 1 })
	m.WorkMean, m.WorkMin, m.WorkEach = meanMinEach(4000, func() { spins += work(20000) & 1 })
	fibv := 0
	m.FibRoot = meanOf(1, func() { fibv = fibRoot() })
	m.NapMean = naps()
	guarded := 0
	for i := 0; i < 2000; i++ {
		guarded += guard(i)
	}
	deepv := 0
	m.DeepRootMean = meanOf(3, func() { deepv += deepRoot() })
	classes := 0
	for i := 0; i < 1200; i++ {
		classes += classify(i % 13)
	}
	fmt.Println("fib(25) =", fibv)
	fmt.Println("guarded sum =", guarded)
	fmt.Println("deep =", deepv)
	fmt.Println("classes =", classes)
	fmt.Println("after goexit =", goexits())
	fmt.Println("spins =", spins >= 0)
	fmt.Printf("sha256 = %x\n", hashes())
	m.InnerSleep10ms, m.InnerSpin, m.InnerFibRoot = int64(inner.sleep10ms), int64(inner.spin), int64(inner.fibRoot)
	m.InnerNap, m.InnerDeepRoot, m.InnerWorkEach = int64(inner.nap), int64(inner.deepRoot), inner.workEach
	if path := os.Getenv("TIMING_OUT"); path != "" { // ioutil: Go 1.15 has no os.WriteFile
		b, _ := json.Marshal(m)
		if err := ioutil.WriteFile(path, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
