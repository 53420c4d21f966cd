// gosites: goroutines with known creation sites, for gostat's goroutines
// by creation site. `gosites WORKERS BLOCKERS` runs WORKERS goroutines
// from spawnWorkers that end, BLOCKERS from spawnBlockers that stay
// blocked, three closures started by main (they end), and two goroutines
// started through a method value (one ends, one stays blocked). Once
// every goroutine that ends has ended, it prints what it started per
// site, then (after a second) "oldest_live_ns N": the age of its first
// blocked goroutine, and "ready", and waits for a line on stdin; then it
// prints that age again ("oldest_live_ns_after N") and exits.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
)

var never = make(chan struct{})

//go:noinline
func worker(i int, wg *sync.WaitGroup) {
	if i < 0 {
		fmt.Println(i)
	}
	wg.Done()
}

//go:noinline
func blocker() {
	<-never
}

func spawnWorkers(n int, wg *sync.WaitGroup) {
	for i := 0; i < n; i++ {
		go worker(i, wg)
	}
}

func spawnBlockers(n int) {
	for i := 0; i < n; i++ {
		go blocker()
	}
}

type server struct{ wg *sync.WaitGroup }

//go:noinline
func (s *server) handle() {
	if s.wg != nil {
		s.wg.Done()
		return
	}
	<-never
}

func main() {
	workers, _ := strconv.Atoi(os.Args[1])
	blockers, _ := strconv.Atoi(os.Args[2])
	before := runtime.NumGoroutine()

	var wg sync.WaitGroup
	wg.Add(workers + 3 + 1)
	spawnWorkers(workers, &wg)
	for i := 0; i < 3; i++ {
		go func() { wg.Done() }()
	}
	ending := &server{wg: &wg}
	run := ending.handle
	go run()
	wg.Wait()
	for runtime.NumGoroutine() != before {
		runtime.Gosched()
	}

	born := time.Now()
	spawnBlockers(blockers)
	stuck := &server{}
	run = stuck.handle
	go run()
	for runtime.NumGoroutine() != before+blockers+1 {
		runtime.Gosched()
	}
	fmt.Printf("site main.spawnWorkers worker created %d exited %d live 0\n", workers, workers)
	fmt.Printf("site main.spawnBlockers blocker created %d exited 0 live %d\n", blockers, blockers)
	fmt.Printf("site main.main func created 3 exited 3 live 0\n")
	fmt.Printf("site main.main handle created 2 exited 1 live 1\n")
	time.Sleep(1500 * time.Millisecond)
	fmt.Printf("oldest_live_ns %d\nready\n", time.Since(born).Nanoseconds())
	bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Printf("oldest_live_ns_after %d\n", time.Since(born).Nanoseconds())
}
