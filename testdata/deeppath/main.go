// deeppath: one chain of nested calls 60,000 deep (an argument changes it)
// through 10 distinct functions f0 -> f1 -> ... -> f9 -> f0 ..., so each
// level is a calling context of its own (not a function recursing into
// itself): the deepest call paths a real program gives gostat's path
// outputs. f0(n) makes n+1 calls, n/10 (+1) of each function.
package main

import (
	"fmt"
	"os"
	"strconv"
)

//go:noinline
func f0(n int) int {
	if n == 0 {
		return 0
	}
	return f1(n-1) + 1
}

//go:noinline
func f1(n int) int {
	if n == 0 {
		return 1
	}
	return f2(n-1) + 1
}

//go:noinline
func f2(n int) int {
	if n == 0 {
		return 2
	}
	return f3(n-1) + 1
}

//go:noinline
func f3(n int) int {
	if n == 0 {
		return 3
	}
	return f4(n-1) + 1
}

//go:noinline
func f4(n int) int {
	if n == 0 {
		return 4
	}
	return f5(n-1) + 1
}

//go:noinline
func f5(n int) int {
	if n == 0 {
		return 5
	}
	return f6(n-1) + 1
}

//go:noinline
func f6(n int) int {
	if n == 0 {
		return 6
	}
	return f7(n-1) + 1
}

//go:noinline
func f7(n int) int {
	if n == 0 {
		return 7
	}
	return f8(n-1) + 1
}

//go:noinline
func f8(n int) int {
	if n == 0 {
		return 8
	}
	return f9(n-1) + 1
}

//go:noinline
func f9(n int) int {
	if n == 0 {
		return 9
	}
	return f0(n-1) + 1
}

func main() {
	n := 60000
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil || v < 0 {
			fmt.Fprintln(os.Stderr, "usage: deeppath [depth]")
			os.Exit(1)
		}
		n = v
	}
	fmt.Printf("f0(%d) = %d\n", n, f0(n))
}
