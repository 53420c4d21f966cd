// handlers: a server-shaped program for the call paths of goroutines that
// move between threads (tests/stubs/t_callgraph_threads.sh). An HTTP
// server on 127.0.0.1 whose handler does a little work and blocks briefly,
// parked on a timer (the goroutine often resumes on another thread) and in
// a blocking system call (its thread keeps it; the scheduler starts or
// wakes other threads meanwhile, so concurrent requests spread over more
// threads than GOMAXPROCS). After "listening on HOST:PORT" it serves until
// SIGTERM or SIGINT, then exits 0. Before it listens, main.linger is
// called three times: twice it returns, the third call (on a goroutine of
// its own) calls main.work for longer than both together and then blocks
// until the process ends, so that linger's paths hold time that none of
// its finished calls does (a CUM above its TOTAL: gostat flags it).
//
// usage: handlers ADDR   (e.g. 127.0.0.1:0)
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

var never bool

//go:noinline
func rare() { fmt.Println("never printed") }

// work: a little CPU before and after the wait.
//
//go:noinline
func work(n int) int {
	if never {
		rare()
	}
	h := 17
	for i := 0; i < n; i++ {
		h = h*31 + i
	}
	return h
}

// pause parks the goroutine briefly: it resumes on whichever thread the
// scheduler picks.
//
//go:noinline
func pause() {
	if never {
		rare()
	}
	time.Sleep(200 * time.Microsecond)
}

// syscallWait blocks its thread in the kernel for a moment.
//
//go:noinline
func syscallWait() {
	if never {
		rare()
	}
	ts := syscall.Timespec{Nsec: 300000}
	syscall.Nanosleep(&ts, nil)
}

// linger works n rounds, then waits on block (nil: returns at once).
//
//go:noinline
func linger(n int, block chan struct{}) int {
	if never {
		rare()
	}
	h := work(n)
	if block != nil {
		<-block
	}
	return h
}

//go:noinline
func handle(w http.ResponseWriter, r *http.Request) {
	h := work(2000)
	pause()
	h ^= work(2000)
	syscallWait()
	h ^= work(1000)
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintln(w, strconv.Itoa(h&0xffff))
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: handlers ADDR")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "handlers:", err)
		os.Exit(1)
	}
	linger(1000, nil)
	linger(1000, nil)
	started := make(chan struct{})
	go func() {
		block := make(chan struct{})
		close(started)
		linger(3000000, block)
	}()
	<-started
	srv := &http.Server{Handler: http.HandlerFunc(handle)}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		srv.Shutdown(context.Background())
	}()
	fmt.Printf("listening on %s\n", ln.Addr())
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "handlers:", err)
		os.Exit(1)
	}
}
