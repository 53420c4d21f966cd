// firstn: for tests/stubs/t_sampling.sh, functions called on several threads.
// Four goroutines, each locked to a thread of its own, call spread 400
// times and shared 250 times each: 1,600 and 1,000 calls in the process.
// The default mode times a function's first 1,000 calls in the process,
// whichever threads make them: every call of shared, and 1,000 of
// spread's and a sample of the rest (with the first 1,000 counted per
// thread, all 1,600 would be).
package main

import (
	"fmt"
	"os"
	"runtime"
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
	var wg sync.WaitGroup
	sums := make([]int, 4)
	start := make(chan struct{})
	for t := 0; t < 4; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			runtime.LockOSThread()
			<-start
			for i := 0; i < 400; i++ {
				sums[t] += spread(i)
				if i < 250 {
					sums[t] += shared(i)
				}
			}
		}(t)
	}
	close(start)
	wg.Wait()
	fmt.Println(sums[0] + sums[1] + sums[2] + sums[3])
}
