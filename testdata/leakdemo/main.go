// leakdemo: a server loop with a goroutine leak that a build flag turns
// on, for gostat diff's goroutine sites (tests/gostat/t_gostat_diff_sites.sh).
// `leakdemo N` handles N requests; each starts a worker that ends and a
// watcher that waits for the request to be done. Built with
// -ldflags=-X=main.leak=yes, handle forgets to tell the watcher: one
// goroutine more is left per request. Both builds call the same
// functions the same number of times; only the goroutines left differ.
// It exits once every goroutine that ends has ended.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
)

var leak = "no"

//go:noinline
func work(i int, wg *sync.WaitGroup) {
	if i < 0 {
		fmt.Println(i)
	}
	wg.Done()
}

//go:noinline
func watch(done chan struct{}) {
	<-done
}

func handle(i int) {
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go work(i, &wg)
	go watch(done)
	wg.Wait()
	if leak != "yes" {
		close(done)
	}
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	before := runtime.NumGoroutine()
	for i := 0; i < n; i++ {
		handle(i)
	}
	left := 0
	if leak == "yes" {
		left = n
	}
	for runtime.NumGoroutine() != before+left {
		runtime.Gosched()
	}
	fmt.Printf("handled %d requests, %d goroutines left\n", n, left)
}
