// firstn: for tests/stubs/t_sampling.sh, functions called on several threads.
// Four goroutines, each locked to a thread of its own, call spread SPREAD
// times and shared SHARED times each (arguments 1 and 2; 400 and 250 by
// default): 4 x SPREAD and 4 x SHARED calls in the process. The default
// mode times a function's first N calls in the process (--first N),
// whichever threads make them: every call of a function with at most N,
// and N of spread's and a sample of the rest (with the first N counted
// per thread, all of a function with 4 x N calls would be).
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
)

var never = len(os.Args) > 5

//go:noinline
func rare() { println("firstn: unreachable") }

//go:noinline
func spread(x int) int {
	if never {
		rare()
	}
	return x*3 + 1
}

//go:noinline
func shared(x int) int {
	if never {
		rare()
	}
	return x ^ 5
}

func main() {
	nspread, nshared := 400, 250
	if len(os.Args) == 3 {
		nspread, _ = strconv.Atoi(os.Args[1])
		nshared, _ = strconv.Atoi(os.Args[2])
	}
	var wg sync.WaitGroup
	sums := make([]int, 4)
	start := make(chan struct{})
	for t := 0; t < 4; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			runtime.LockOSThread()
			<-start
			for i := 0; i < nspread || i < nshared; i++ {
				if i < nspread {
					sums[t] += spread(i)
				}
				if i < nshared {
					sums[t] += shared(i)
				}
			}
		}(t)
	}
	close(start)
	wg.Wait()
	fmt.Println(sums[0] + sums[1] + sums[2] + sums[3])
}
