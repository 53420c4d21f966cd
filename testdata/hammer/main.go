// hammer: 8 goroutines call one trivial function 10^7 times each (exactly
// 8*10^7 calls) while runtime.GC runs repeatedly and a CPU profile is on.
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

const (
	workers = 8
	calls   = 10000000
)

//go:noinline
func step(x uint64) uint64 {
	if never {
		rare()
	}
	return x*6364136223846793005 + 1442695040888963407
}

// garbage allocates so the collector has something to do.
//
//go:noinline
func garbage(n int) []byte {
	return make([]byte, n)
}

//go:noinline
func gcLoop(stop *int32, done chan<- int) {
	n := 0
	for {
		runtime.GC()
		n++
		if atomic.LoadInt32(stop) != 0 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	done <- n
}

func main() {
	if err := pprof.StartCPUProfile(ioutil.Discard); err != nil {
		fmt.Fprintln(os.Stderr, "pprof:", err)
		os.Exit(1)
	}
	runtime.GC()

	var stop int32
	gcDone := make(chan int)
	go gcLoop(&stop, gcDone)

	results := make([]uint64, workers)
	var keep [workers][]byte
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) { // main.main.func1
			defer wg.Done()
			x := uint64(w)
			for i := 0; i < calls; i++ {
				x = step(x)
				if i%100000 == 0 {
					keep[w] = garbage(1024 + i%4096)
				}
			}
			results[w] = x
		}(w)
	}
	wg.Wait()
	atomic.StoreInt32(&stop, 1)
	gcs := <-gcDone
	runtime.GC()
	pprof.StopCPUProfile()

	for w, r := range results {
		fmt.Printf("worker %d: %016x (%d bytes kept)\n", w, r, len(keep[w]))
	}
	if gcs < 1 {
		fmt.Println("runtime.GC never ran")
	}
	fmt.Println("done")
}

// never is false; a call under "if never" never runs, but it makes a small
// function a non-leaf, which gives it a stack-bound check in its prologue.
// gorewrite counts only functions that have that check (small leaf
// functions have none), so every function asserted in ./expect has one.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
