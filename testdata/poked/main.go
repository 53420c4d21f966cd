// poked: four goroutines, each locked to its own OS thread for the whole
// run, run a chain of calls 300 deep through ten distinct functions
// r0 -> r1 -> ... -> r9 -> r0 (more calling contexts than a small path table holds: the rest go to the
// arc table), call main.victim 1000 times and leave a goroutine parked.
// Then the program prints "ready" and waits for a line on stdin (EOF does
// too): tests/stubs/t_poke.sh pokes hostile values into the stats file
// meanwhile. Then it does all of it again, and the parked goroutines end.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sync"
)

const (
	workers = 4
	depth   = 300
	victims = 1000
)

//go:noinline
func r0(n int) int {
	if n == 0 {
		return 1
	}
	return r1(n-1) + 1
}

//go:noinline
func r1(n int) int {
	if n == 0 {
		return 1
	}
	return r2(n-1) + 1
}

//go:noinline
func r2(n int) int {
	if n == 0 {
		return 1
	}
	return r3(n-1) + 1
}

//go:noinline
func r3(n int) int {
	if n == 0 {
		return 1
	}
	return r4(n-1) + 1
}

//go:noinline
func r4(n int) int {
	if n == 0 {
		return 1
	}
	return r5(n-1) + 1
}

//go:noinline
func r5(n int) int {
	if n == 0 {
		return 1
	}
	return r6(n-1) + 1
}

//go:noinline
func r6(n int) int {
	if n == 0 {
		return 1
	}
	return r7(n-1) + 1
}

//go:noinline
func r7(n int) int {
	if n == 0 {
		return 1
	}
	return r8(n-1) + 1
}

//go:noinline
func r8(n int) int {
	if n == 0 {
		return 1
	}
	return r9(n-1) + 1
}

//go:noinline
func r9(n int) int {
	if n == 0 {
		return 1
	}
	return r0(n-1) + 1
}

//go:noinline
func victim(x int) int {
	if never {
		rare()
	}
	return x ^ 5
}

//go:noinline
func park(done chan struct{}, wg *sync.WaitGroup) {
	<-done
	wg.Done()
}

//go:noinline
func work(id int, done chan struct{}, parked *sync.WaitGroup) int {
	s := r0(depth)
	for i := 0; i < victims; i++ {
		s += victim(i) & 1
	}
	go park(done, parked)
	return s + id
}

// worker runs both phases on one thread (so in one counter row): what a
// phase finds poked is what the one before it wrote.
//
//go:noinline
func worker(id int, ph *[2]phase, parked *sync.WaitGroup) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for p := range ph {
		<-ph[p].start
		ph[p].sums[id] = work(id, ph[p].parks, parked)
		ph[p].done.Done()
	}
}

type phase struct {
	start, parks chan struct{}
	sums         []int
	done         sync.WaitGroup
}

//go:noinline
func run(ph *phase) int {
	close(ph.start)
	ph.done.Wait()
	t := 0
	for _, s := range ph.sums {
		t += s
	}
	return t
}

func main() {
	var parked sync.WaitGroup
	var ph [2]phase
	for p := range ph {
		ph[p] = phase{start: make(chan struct{}), parks: make(chan struct{}), sums: make([]int, workers)}
		ph[p].done.Add(workers)
	}
	parked.Add(2 * workers)
	for i := 0; i < workers; i++ {
		go worker(i, &ph, &parked)
	}
	fmt.Println("phase 1:", run(&ph[0]))
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	close(ph[0].parks)
	fmt.Println("phase 2:", run(&ph[1]))
	close(ph[1].parks)
	parked.Wait()
	fmt.Println("done")
}

// never is false: a call under it makes victim a non-leaf.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
