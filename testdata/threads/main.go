// threads: 200 goroutines, each locked to its own OS thread, all alive at
// once, each calling one function 10000 times (exactly 2*10^6 calls). More
// threads than most per-thread counter tables hold.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

const (
	nthreads = 200
	calls    = 10000
)

//go:noinline
func tick(x int) int {
	if never {
		rare()
	}
	return x + 3
}

//go:noinline
func locked(id int, ready, start *sync.WaitGroup, out []int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ready.Done()
	start.Wait() // all 200 threads exist now
	x := id
	for i := 0; i < calls; i++ {
		x = tick(x)
	}
	out[id] = x
}

func main() {
	out := make([]int, nthreads)
	var ready, start, done sync.WaitGroup
	ready.Add(nthreads)
	start.Add(1)
	done.Add(nthreads)
	for i := 0; i < nthreads; i++ {
		go func(i int) { // main.main.func1
			locked(i, &ready, &start, out)
			done.Done()
		}(i)
	}
	ready.Wait()
	start.Done()
	done.Wait()
	sum := 0
	for _, v := range out {
		sum += v
	}
	fmt.Println("sum:", sum)
}

// never is false; a call under "if never" never runs, but it makes a small
// function a non-leaf, which gives it a stack-bound check in its prologue.
// gorewrite counts only functions that have that check (small leaf
// functions have none), so every function asserted in ./expect has one.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
