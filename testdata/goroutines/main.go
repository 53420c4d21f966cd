// goroutines: starts an exact number of goroutines for gostat's goroutine
// counts (runtime.newproc1 / runtime.goexit1): `goroutines EXITING BLOCKED`
// starts EXITING goroutines that return (half of them through
// runtime.Goexit) and waits until the runtime has retired every one of
// them, then starts BLOCKED goroutines that are still blocked when the
// program exits. Run with GOGC=off so the runtime starts no GC workers.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
)

//go:noinline
func work(i int, wg *sync.WaitGroup) {
	wg.Done()
	if i%2 == 1 {
		runtime.Goexit()
	}
}

func main() {
	exiting, _ := strconv.Atoi(os.Args[1])
	blocked, _ := strconv.Atoi(os.Args[2])
	before := runtime.NumGoroutine()

	var wg sync.WaitGroup
	wg.Add(exiting)
	for i := 0; i < exiting; i++ {
		go work(i, &wg)
	}
	wg.Wait()
	// Done runs before the goroutine's end: wait until the runtime has
	// really retired them (goexit1 has run once a goroutine leaves the count).
	for runtime.NumGoroutine() != before {
		runtime.Gosched()
	}

	never := make(chan struct{})
	for i := 0; i < blocked; i++ {
		go func() { <-never }()
	}
	for runtime.NumGoroutine() != before+blocked {
		runtime.Gosched()
	}
	fmt.Printf("started %d exiting and %d blocked goroutines\n", exiting, blocked)
}
