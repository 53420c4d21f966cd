// compensation: nested calls of known cost for tests/stubs/t_compensation.sh.
// parent makes n calls (argument 1, default 10,000,000) of leaf, which takes
// about 10 ns, and measures its own time with time.Now() around the loop: run
// as the original binary, that is the parent's true inclusive time, which
// the instrumented binary's gostat figure (with every probe's cost taken
// out) must match. The time goes to stderr (it differs between runs), the
// result to stdout (the same in every run and build).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// leaf: a few ns of arithmetic; the never-taken call gives it a stack
// check, so it is instrumented as an ordinary function and timed.
//
//go:noinline
func leaf(x uint64) uint64 {
	if never {
		rare()
	}
	for i := 0; i < 3; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		x = x*0x9e3779b97f4a7c15 + 1
	}
	return x
}

//go:noinline
func parent(n int) (uint64, time.Duration) {
	start := time.Now()
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x = leaf(x)
	}
	return x, time.Since(start)
}

func main() {
	n := 10000000
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	x, took := parent(n)
	fmt.Println("result", x)
	fmt.Fprintln(os.Stderr, "parent_ns", took.Nanoseconds())
}

// never is false: the branch to rare only gives leaf its stack check.
var never = len(os.Args) > 5

//go:noinline
func rare() { println("compensation: unreachable") }
