// crowd: more CPU-bound goroutines than Ps, for tests/stubs/t_oncpu_crowd.sh.
// main starts n goroutines (argument 1, default 8) that each call spin
// once with the same amount of work (argument 2, millions of rounds,
// default 60), and waits for them. With GOMAXPROCS below n, sysmon
// preempts each spin every 10 ms (asynchronously, or at a stack check)
// and it waits in the run queue for its next turn: its wall time is about
// n/GOMAXPROCS times its CPU time. At the end main prints to stderr what
// the kernel says of every thread alive: cpu_ns, the time on a CPU, and
// delay_ns, the time runnable but waiting for one (/proc/self/task/*/
// schedstat). The result goes to stdout, the same in every run and build.
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"strconv"
	"strings"
	"sync"
)

//go:noinline
func spin(rounds int) uint64 {
	x := uint64(88172645463325252)
	for i := 0; i < rounds; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func arg(i, def int) int {
	if len(os.Args) > i {
		if v, err := strconv.Atoi(os.Args[i]); err == nil {
			return v
		}
	}
	return def
}

// schedstat: the summed first two fields of every thread's schedstat.
func schedstat() (cpu, delay uint64) {
	tasks, _ := ioutil.ReadDir("/proc/self/task")
	for _, t := range tasks {
		b, err := ioutil.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) >= 2 {
			c, _ := strconv.ParseUint(f[0], 10, 64)
			d, _ := strconv.ParseUint(f[1], 10, 64)
			cpu += c
			delay += d
		}
	}
	return
}

func main() {
	n := arg(1, 8)
	rounds := arg(2, 60) * 1000000
	sums := make([]uint64, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sums[i] = spin(rounds)
		}(i)
	}
	wg.Wait()
	same := 0
	for _, s := range sums {
		if s == sums[0] {
			same++
		}
	}
	fmt.Println("done", n, same, sums[0])
	cpu, delay := schedstat()
	fmt.Fprintln(os.Stderr, "cpu_ns", cpu)
	fmt.Fprintln(os.Stderr, "delay_ns", delay)
}
