// tracego: calls whose count, goroutine and duration are known, for
// gorewrite --trace's engine tests (tests/stubs/t_trace.sh):
//   all      8 goroutines x 500 calls of work(g, i) = g*1000 + i (Gosched
//            every 7th call: goroutines move between threads), then
//            slow(ms) 20 times, sleeping 30 ms on every 4th call;
//   ring N   N calls of work(0, i) on one locked thread;
//   follow N N calls of work(0, i), 100 ms apart.
// Builds with every Go from 1.15.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
)

//go:noinline
func work(g, i int) int {
	if i%7 == 0 {
		runtime.Gosched()
	}
	return g*1000 + i
}

//go:noinline
func slow(ms int) int {
	if ms > 0 {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	return ms
}

func all() {
	var wg sync.WaitGroup
	sums := make([]int, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				sums[g] += work(g, i)
			}
		}(g)
	}
	wg.Wait()
	fmt.Println(sums)
	total := 0
	for i := 0; i < 20; i++ {
		ms := 0
		if i%4 == 0 {
			ms = 30
		}
		total += slow(ms)
	}
	fmt.Println(total)
}

func main() {
	mode, n := "all", 0
	if len(os.Args) > 2 {
		mode = os.Args[1]
		n, _ = strconv.Atoi(os.Args[2])
	}
	s := 0
	switch mode {
	case "ring":
		runtime.LockOSThread()
		for i := 0; i < n; i++ {
			s += work(0, i)
		}
	case "follow":
		for i := 0; i < n; i++ {
			s += work(0, i)
			time.Sleep(100 * time.Millisecond)
		}
	default:
		all()
	}
	fmt.Println(s)
}
