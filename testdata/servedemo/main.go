// servedemo: a program with exactly known counts for tests/gostat/t_gostat_serve_prometheus.sh
// (gostat serve read by Prometheus). It calls work() 1000 times and
// pause() 5 times (each sleeps 2ms), prints "ready", then on each line
// "spawn N" read from stdin starts N goroutines that each return at once,
// waits for them and prints "spawned N". It exits on the line "exit" (or
// when stdin closes). Not an expect-file program.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

var sink int
var never bool

//go:noinline
func rare() { fmt.Println("never printed") }

// work calls rare (never, in fact) so that it has a stack check, which
// gorewrite needs to instrument it.
//
//go:noinline
func work(i int) int {
	if never {
		rare()
	}
	s := 0
	for k := 0; k < 100; k++ {
		s += i ^ k
	}
	return s
}

//go:noinline
func pause() { time.Sleep(2 * time.Millisecond) }

//go:noinline
func child(wg *sync.WaitGroup) { wg.Done() }

func spawn(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go child(&wg)
	}
	wg.Wait()
	// Done runs before the goroutine ends: wait until every one has.
	for runtime.NumGoroutine() > 1 {
		time.Sleep(time.Millisecond)
	}
}

func main() {
	// The GC's worker goroutines start at the first collection: start them
	// now, so the runtime creates no goroutines while the test counts.
	runtime.GC()
	for i := 0; i < 1000; i++ {
		sink += work(i)
	}
	for i := 0; i < 5; i++ {
		pause()
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() && in.Text() != "exit" {
		var n int
		if _, err := fmt.Sscanf(in.Text(), "spawn %d", &n); err != nil {
			fmt.Fprintln(os.Stderr, "servedemo: want \"spawn N\", got", in.Text())
			os.Exit(2)
		}
		spawn(n)
		fmt.Println("spawned", n)
	}
}
