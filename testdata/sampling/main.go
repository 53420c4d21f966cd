// sampling: steady functions for tests/stubs/t_sampling.sh, which compares the
// default mode's sampled means and percentiles with --time-all's. Each
// steady function spins a fixed number of rounds (no calls on its path,
// so timing its callees adds nothing to it) and has a stack check (the
// never-taken call), so it is timed. short and long are called 10^5+
// times (sampled in the default mode); rare1 and rare2 16 and 8 times, at
// most the default mode's first 16 calls (every call timed in every
// timing mode).
package main

import (
	"fmt"
	"os"
	"strconv"
)

var never = len(os.Args) > 5

// The rounds of short and long: arguments 1 and 2 (the test picks them so
// that each lands in the middle of a histogram bucket), 600 and 2400 else.
var shortRounds, longRounds = 600, 2400

//go:noinline
func rare() { println("rare: unreachable") }

// spin: the steady work; the result is printed so it cannot be dropped.
func spin(rounds, x int) int {
	for i := 0; i < rounds; i++ {
		x = x*1103515245 + 12345
		x ^= x >> 7
	}
	return x
}

//go:noinline
func short(x int) int {
	if never {
		rare()
	}
	return spin(shortRounds, x)
}

//go:noinline
func long(x int) int {
	if never {
		rare()
	}
	return spin(longRounds, x)
}

//go:noinline
func rare1(x int) int {
	if never {
		rare()
	}
	return spin(3000, x)
}

//go:noinline
func rare2(x int) int {
	if never {
		rare()
	}
	return spin(800, x)
}

func main() {
	if len(os.Args) == 3 {
		shortRounds, _ = strconv.Atoi(os.Args[1])
		longRounds, _ = strconv.Atoi(os.Args[2])
	}
	s := 0
	for i := 0; i < 300000; i++ {
		s += short(i)
	}
	for i := 0; i < 100000; i++ {
		s += long(i)
	}
	for i := 0; i < 16; i++ {
		s += rare1(i)
	}
	for i := 0; i < 8; i++ {
		s += rare2(i)
	}
	fmt.Println("sum:", s&0xffff)
}
