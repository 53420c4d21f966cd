// longcalls: for tests/stubs/t_sampling.sh ("long"), the default mode's
// rule that a function whose calls use a lot of CPU is timed on every call
// (format/stub_abi.h GS_LONG_TICKS: 2^15 ticks of on-CPU time a call, on
// average). heavy computes for about 100 us a call, 300 times; light is a
// few nanoseconds, 100,000 times; sleeper sleeps 200 us a call (long in
// wall-clock time, a few microseconds of CPU), 100 times. heavy is timed on
// every call in the default mode; light and sleeper are sampled. All on
// one thread (the rule goes by a thread's calls).
package main

import (
	"fmt"
	"runtime"
	"time"
)

//go:noinline
func heavy(n int) int {
	if n < 0 { // a call, so that heavy has a stack check (a leaf's loop could land in its first bytes)
		fmt.Println(n)
	}
	x := n
	for i := 0; i < 200000; i++ {
		x = x*1103515245 + 12345
	}
	return x & 0xff
}

//go:noinline
func light(x int) int { return x*3 + 1 }

//go:noinline
func sleeper() { time.Sleep(200 * time.Microsecond) }

func main() {
	// one thread: the rule goes by each thread's calls, and a goroutine
	// that moved to a thread of its own would start there again
	runtime.LockOSThread()
	sum := 0
	for i := 0; i < 300; i++ {
		sum += heavy(i)
	}
	for i := 0; i < 100000; i++ {
		sum += light(i)
	}
	for i := 0; i < 100; i++ {
		sleeper()
	}
	fmt.Println("longcalls", sum)
}
