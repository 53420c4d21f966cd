// sleeper: functions whose wall time is mostly off-CPU, and one that is
// all on-CPU, for tests/stubs/t_oncpu.sh. sleeper calls time.Sleep,
// waiter blocks on a channel that another goroutine sends on after the
// same time, burner spins on the clock; each is called n times (argument
// 1, default 5) for d milliseconds (argument 2, default 40). main measures
// each function's summed time with time.Now() around its calls: run as the
// original binary, those are the true wall times, which gostat's TOTAL
// must match. They go to stderr (they differ between runs), the result to
// stdout (the same in every run and build).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

//go:noinline
func sleeper(d time.Duration) {
	time.Sleep(d)
}

//go:noinline
func waiter(c chan int) int {
	return <-c
}

//go:noinline
func burner(d time.Duration) uint64 {
	x := uint64(88172645463325252)
	for start := time.Now(); time.Since(start) < d; {
		for i := 0; i < 1000; i++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
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

func main() {
	n := arg(1, 5)
	d := time.Duration(arg(2, 40)) * time.Millisecond
	var slept, waited, burned time.Duration
	sum := 0
	for i := 0; i < n; i++ {
		start := time.Now()
		sleeper(d)
		slept += time.Since(start)

		c := make(chan int)
		go func() {
			time.Sleep(d)
			c <- 1
		}()
		start = time.Now()
		sum += waiter(c)
		waited += time.Since(start)

		start = time.Now()
		if burner(d) == 0 {
			sum++
		}
		burned += time.Since(start)
	}
	fmt.Println("done", sum)
	fmt.Fprintln(os.Stderr, "sleeper_ns", slept.Nanoseconds())
	fmt.Fprintln(os.Stderr, "waiter_ns", waited.Nanoseconds())
	fmt.Fprintln(os.Stderr, "burner_ns", burned.Nanoseconds())
}
