// gopaths: one go statement in a shared helper (spawn), reached from
// three call paths: helperA calls it A times (goroutines that end),
// helperB B times (goroutines that stay blocked), and main.main once
// directly (one that stays blocked; main never returns). With
// --call-graph gostat goroutines must tell the three apart by the
// creator's call path. Usage: gopaths A B; prints "ready", then waits for
// a line on stdin and exits. helperA's goroutines have ended (passed
// goexit, not only wg.Done) before the others start: their end is in the
// file whatever the scheduler does.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
)

var forever = make(chan struct{})

func worker(wg *sync.WaitGroup, stop chan struct{}) {
	if stop != nil {
		<-stop
	}
	wg.Done()
}

//go:noinline
func spawn(wg *sync.WaitGroup, stop chan struct{}) {
	wg.Add(1)
	go worker(wg, stop)
}

//go:noinline
func helperA(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		spawn(&wg, nil)
	}
	wg.Wait()
}

//go:noinline
func helperB(n int, wg *sync.WaitGroup) {
	for i := 0; i < n; i++ {
		spawn(wg, forever)
	}
}

func main() {
	a, _ := strconv.Atoi(os.Args[1])
	b, _ := strconv.Atoi(os.Args[2])
	var stay sync.WaitGroup
	helperA(a)
	for runtime.NumGoroutine() > 1 {
		runtime.Gosched()
	}
	helperB(b, &stay)
	spawn(&stay, forever)
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
}
