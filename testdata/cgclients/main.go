// cgclients: a call graph with known arcs for the clients of gostat's
// call-graph outputs (tests/gostat/t_callgraph_clients.sh): main.run calls
// main.alpha 30 times, main.beta 20 times and main.gamma 10 times;
// alpha calls main.busy once per call (30 arcs), beta twice (40); alpha,
// beta, busy and gamma each call main.spin once. main.run runs on a
// goroutine of its own, whose first call (main.main.func1) returns: every
// call under it has a complete path.
package main

import (
	"fmt"
	"io"
	"io/ioutil"
	"os"
	"runtime"
)

var sink uint64

//go:noinline
func spin(n int) uint64 {
	x := sink
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func busy() { sink = spin(20000) }

//go:noinline
func gamma() { sink = spin(60000) }

//go:noinline
func alpha() {
	busy()
	sink = spin(5000)
}

//go:noinline
func beta() {
	busy()
	busy()
	sink = spin(3000)
}

//go:noinline
func run() {
	for i := 0; i < 30; i++ {
		alpha()
	}
	for i := 0; i < 20; i++ {
		beta()
	}
	for i := 0; i < 10; i++ {
		gamma()
	}
}

func main() {
	done := make(chan bool)
	go func() {
		run()
		done <- true
	}()
	<-done
	// Wait until the goroutine has returned, not only signalled: a call
	// that has not returned when the program exits has no recorded path.
	for runtime.NumGoroutine() > 1 {
		runtime.Gosched()
	}
	if sink == 42 {
		fmt.Fprintln(os.Stderr, "unlikely")
	}
	fmt.Println("done")
	if len(os.Args) > 1 && os.Args[1] == "wait" {
		io.Copy(ioutil.Discard, os.Stdin) // stay alive for gostat serve until stdin closes
	}
}
