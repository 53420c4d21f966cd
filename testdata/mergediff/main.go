// Command mergediff is the program of gostat merge's diff test
// (tests/gostat/t_gostat_merge_diff.sh): the same work on every run, in two
// shapes. Ten functions called 3,000 times each take either a short or a
// long input, alternately, so their durations have two modes ten times
// apart; the default (sampled) mode times a few dozen of their calls,
// whose median falls in either mode from run to run: too few timed calls
// to judge, which a diff must see in merged profiles as in stats files.
// main.checksum, called 80,000 times, takes the same time on every call;
// with the argument "slow" it does its work twice. Standard output is
// deterministic.
package main

import (
	"fmt"
	"os"
)

var never bool

func rare() { fmt.Fprintln(os.Stderr, "never") }

// spin hashes n rounds: the work of every function here (inlined into
// each, so that each one's time is its own).
func spin(seed uint64, n int) uint64 {
	h := seed | 1
	for i := 0; i < n; i++ {
		h ^= h << 13
		h ^= h >> 7
		h ^= h << 17
	}
	return h
}

// rounds: the short input and the long one, alternately.
func rounds(i int) int {
	if i%2 == 0 {
		return 150
	}
	return 1500
}

// m0 .. m9: a stack check each (the call of rounds), so they are timed.
//
//go:noinline
func m0(i int) uint64 { return spin(0, rounds(i)) }

//go:noinline
func m1(i int) uint64 { return spin(1, rounds(i)) }

//go:noinline
func m2(i int) uint64 { return spin(2, rounds(i)) }

//go:noinline
func m3(i int) uint64 { return spin(3, rounds(i)) }

//go:noinline
func m4(i int) uint64 { return spin(4, rounds(i)) }

//go:noinline
func m5(i int) uint64 { return spin(5, rounds(i)) }

//go:noinline
func m6(i int) uint64 { return spin(6, rounds(i)) }

//go:noinline
func m7(i int) uint64 { return spin(7, rounds(i)) }

//go:noinline
func m8(i int) uint64 { return spin(8, rounds(i)) }

//go:noinline
func m9(i int) uint64 { return spin(9, rounds(i)) }

var slow = len(os.Args) > 1 && os.Args[1] == "slow"

//go:noinline
func checksum(i int) uint64 {
	if never { // a stack check, so that checksum is timed
		rare()
	}
	passes := 1 // about 1,450 ticks a pass at 2.4 GHz: mid-bucket
	if slow {
		passes = 2
	}
	var h uint64
	for p := 0; p < passes; p++ {
		h = spin(uint64(i), 290)
	}
	return h
}

func main() {
	bimodal := []func(int) uint64{m0, m1, m2, m3, m4, m5, m6, m7, m8, m9}
	var sum uint64
	for i := 0; i < 3000; i++ {
		for _, f := range bimodal {
			sum += f(i)
		}
	}
	for i := 0; i < 80000; i++ {
		sum += checksum(i)
	}
	fmt.Println(sum % 1000003)
}
