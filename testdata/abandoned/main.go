// abandoned: an exact number of recovered panics, each unwinding an exact
// number of timed frames, among a lot of scheduling (goroutines parking on
// channels, runtime.Gosched, goroutines that end and whose g is reused), so
// that the scheduler's functions that never return (runtime.schedule,
// execute, park_m, ...) run hundreds of thousands of times.
// tests/stubs/t_abandoned.sh asserts that gostat counts the panics'
// frames, and only those, as unwound.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
)

// Panics: main calls guard panicRounds times; guard defers recoverer and
// calls level1 -> level2 -> level3, which panics. Each panic leaves the
// three level frames without returning (unwound); guard returns normally.
const panicRounds = 250

// Scheduling: pingPongPairs pairs of goroutines pass a token back and forth
// pingPongRounds times (each receive parks the goroutine), yielders call
// runtime.Gosched, and waves of short-lived goroutines end and are reused.
const (
	pingPongPairs  = 4
	pingPongRounds = 20000
	yielders       = 4
	yieldRounds    = 20000
	waves          = 200
	waveSize       = 50
)

//go:noinline
func level3(i int) int {
	if never {
		rare()
	}
	panic(fmt.Sprint("boom ", i))
}

//go:noinline
func level2(i int) int {
	if never {
		rare()
	}
	return level3(i) + 1
}

//go:noinline
func level1(i int) int {
	if never {
		rare()
	}
	return level2(i) + 1
}

//go:noinline
func recoverer(recovered *int) {
	if r := recover(); r != nil {
		*recovered++
	}
}

//go:noinline
func guard(i int, recovered *int) (v int) {
	defer recoverer(recovered)
	return level1(i)
}

//go:noinline
func ping(in <-chan int, out chan<- int, rounds int) {
	for i := 0; i < rounds; i++ {
		out <- 1 + <-in
	}
}

//go:noinline
func pingPong(rounds int) int {
	a, b := make(chan int), make(chan int)
	done := make(chan int)
	go func() { // main.pingPong.func1
		ping(a, b, rounds)
		done <- 0
	}()
	total := 0
	for i := 0; i < rounds; i++ {
		a <- i
		total += <-b - i
	}
	<-done
	return total
}

//go:noinline
func yield(rounds int) {
	for i := 0; i < rounds; i++ {
		runtime.Gosched()
	}
}

//go:noinline
func short(wg *sync.WaitGroup, out *int64, mu *sync.Mutex) {
	defer wg.Done()
	mu.Lock()
	*out++
	mu.Unlock()
}

func main() {
	recovered := 0
	for i := 0; i < panicRounds; i++ {
		guard(i, &recovered)
	}

	var wg sync.WaitGroup
	sums := make([]int, pingPongPairs)
	for p := 0; p < pingPongPairs; p++ {
		wg.Add(1)
		go func(p int) { // main.main.func1
			defer wg.Done()
			sums[p] = pingPong(pingPongRounds)
		}(p)
	}
	for y := 0; y < yielders; y++ {
		wg.Add(1)
		go func() { // main.main.func2
			defer wg.Done()
			yield(yieldRounds)
		}()
	}
	wg.Wait()

	var ended int64
	var mu sync.Mutex
	for w := 0; w < waves; w++ {
		var wave sync.WaitGroup
		for i := 0; i < waveSize; i++ {
			wave.Add(1)
			go short(&wave, &ended, &mu)
		}
		wave.Wait()
	}

	fmt.Println("recovered:", recovered, "pingpong:", sums, "ended:", ended)
	os.Exit(0)
}

// never is false; a call under "if never" gives a small function a stack
// check, so that gorewrite instruments it (testdata/panics explains).
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
