// coldsample: a small function whose sampled calls find the caches cold,
// for tests/stubs/t_sampling.sh. Each of its iterations calls 64 of 512
// distinct functions (funcs.go, in rotation: each runs once every 8
// iterations) and touches 64 cache lines of a 16 MiB buffer that no
// iteration touched for a while, then calls main.small, a leaf of a few
// tens of ns. In
// the default mode small's timed calls are rare after its first 1,000, so
// whatever the timing path of a sampled call leaves cold (stub code, its
// branches' predictions, the timing stack, the record's lines) is cold by
// then; --time-all times every call, with all of it warm.
package main

import (
	"fmt"
	"os"
	"strconv"
)

var never = len(os.Args) > 5

//go:noinline
func rare() { println("rare: unreachable") }

// The rounds of small: argument 2 (the test picks it so that small's
// duration lies in the middle of a histogram bucket), 24 else.
var smallRounds = 24

// small: the function the test compares; dependent multiply-adds.
//
//go:noinline
func small(x uint64) uint64 {
	if never {
		rare()
	}
	for i := 0; i < smallRounds; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

const bufLines = 16 << 20 / 64

var buf = make([]uint64, bufLines*8)

func main() {
	iters := 200000
	for i, p := range []*int{&iters, &smallRounds} {
		if len(os.Args) > i+1 {
			n, err := strconv.Atoi(os.Args[i+1])
			if err != nil || n < 0 {
				fmt.Fprintln(os.Stderr, "usage: coldsample [iterations [small's rounds]]")
				os.Exit(2)
			}
			*p = n
		}
	}
	x, line := uint64(1), 0
	for it := 0; it < iters; it++ {
		base := it % 8 * 64
		for j := 0; j < 64; j++ {
			x = rotation[base+j](x)
			buf[line*8] += x
			line = (line + 4099) % bufLines
		}
		x = small(x)
	}
	fmt.Println(x)
}
