// copymodule: what the runtime shows of a function, whichever module holds
// its code: callers, frames, FuncForPC, a recovered nil dereference, stack
// growth under GC, async preemption of a tight loop, a CPU profile (to the
// file its argument names, if any), and last an unrecovered panic's
// traceback. Prints no addresses, so an
// instrumented build's output equals the original's.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"
)

type point struct{ X, Y int }

// move is the small pointer method that faults when p is nil.
//
//go:noinline
func (p *point) move(dx int) int { p.X += dx; return p.X }

//go:noinline
func where() []string {
	pcs := make([]uintptr, 16)
	n := runtime.Callers(1, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			out = append(out, fmt.Sprintf("%s %s:%d", f.Function, short(f.File), f.Line))
		}
		if !more {
			return out
		}
	}
}

func short(file string) string {
	if i := strings.LastIndex(file, "/"); i >= 0 {
		return file[i+1:]
	}
	return file
}

//go:noinline
func callerChain(depth int) []string {
	if depth == 0 {
		return where()
	}
	return callerChain(depth - 1)
}

//go:noinline
func funcForPC() string {
	pc, file, line, _ := runtime.Caller(0)
	f := runtime.FuncForPC(pc)
	entry := runtime.FuncForPC(f.Entry())
	return fmt.Sprintf("%s %s:%d entry-name=%s", f.Name(), short(file), line, entry.Name())
}

//go:noinline
func nilMove(p *point) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	p.move(1)
	return nil
}

// grow recurses with a frame big enough that the stack grows and moves
// many times; the GC scans these frames while other goroutines allocate.
//
//go:noinline
func grow(n int, buf [64]int) int {
	buf[n%64] = n
	if n == 0 {
		runtime.GC()
		return buf[0]
	}
	return grow(n-1, buf) + buf[n%64]
}

//go:noinline
func allocate(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		b := make([]byte, 1024+i%4096)
		total += len(b)
	}
	return total
}

//go:noinline
func spin(stop *int32) int {
	i := 0
	for *stop == 0 {
		i++
	}
	return i
}

// preempt: one P, a tight loop without calls, and a goroutine that can
// only run when the loop is preempted asynchronously.
func preempt() string {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var stop int32
	done := make(chan int)
	go func() { done <- spin(&stop) }()
	runtime.Gosched()
	go func() { stop = 1 }()
	select {
	case <-done:
		return "preempted"
	case <-time.After(20 * time.Second):
		return "not preempted"
	}
}

//go:noinline
func busy(n int) int {
	x := 0
	for i := 0; i < n; i++ {
		x = x*31 + i
	}
	return x
}

// profile writes the program's own CPU profile of busy to path.
func profile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		busy(1 << 20)
	}
	pprof.StopCPUProfile()
	return nil
}

func main() {
	fmt.Println(strings.Join(callerChain(3), "\n"))
	fmt.Println(funcForPC())
	fmt.Println("nil:", nilMove(nil))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() { defer wg.Done(); allocate(20000) }()
	}
	sums := make([]int, 4)
	for g := range sums {
		wg.Add(1)
		go func(g int) { defer wg.Done(); sums[g] = grow(2000+g, [64]int{}) }(g)
	}
	wg.Wait()
	sort.Ints(sums)
	fmt.Println("grow:", sums)
	fmt.Println("preempt:", preempt())
	if len(os.Args) > 1 {
		fmt.Println("profile:", profile(os.Args[1]))
	}
	var p *point
	p.move(2)
}
