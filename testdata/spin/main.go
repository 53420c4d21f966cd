// spin: 8 goroutines, each locked to its own OS thread, call step() in a
// loop until the process is killed, for tests/stubs/t_faults.sh (a reader polls
// the counters while 8 threads update them, then kill -9 mid-run). Prints
// "running" once every worker has counted. Not an expect-file program.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
)

const workers = 8

var never bool

//go:noinline
func rare() { fmt.Println("never printed") }

//go:noinline
func step(x uint64) uint64 {
	if never {
		rare()
	}
	return x*6364136223846793005 + 1442695040888963407
}

var sink [workers]uint64

func main() {
	var started sync.WaitGroup
	started.Add(workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			runtime.LockOSThread()
			x := step(uint64(w))
			started.Done()
			for {
				x = step(x)
				sink[w] = x
			}
		}(w)
	}
	started.Wait()
	fmt.Fprintln(os.Stdout, "running")
	select {}
}
