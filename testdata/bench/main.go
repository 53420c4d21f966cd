// bench: call-cost workloads for `make bench`. Prints checksums only, so the
// original and instrumented runs can be compared; timing is done outside.
package main

import (
	"fmt"
	"os"
	"strconv"
)

// leaf has no stack check (the linker omits it in small leaf functions):
// gorewrite relocates its first instructions into its trampoline.
//
//go:noinline
func leaf(x int) int { return x*3 + 1 }

// step has a stack check (it calls leaf).
//
//go:noinline
func step(x int) int { return leaf(x) ^ x }

// args4 takes four integer arguments (make bench's trace rows).
//
//go:noinline
func args4(a, b, c, d int) int { return (a+b)^c - d }

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bench loop|fib|leaf|args4 N")
		os.Exit(1)
	}
	n, _ := strconv.Atoi(os.Args[2])
	switch os.Args[1] {
	case "loop":
		s := 0
		for i := 0; i < n; i++ {
			s = step(s)
		}
		fmt.Println(s)
	case "fib":
		fmt.Println(fib(n))
	case "args4":
		s := 0
		for i := 0; i < n; i++ {
			s = args4(s, i, 3, 5)
		}
		fmt.Println(s)
	case "leaf":
		s := 0
		for i := 0; i < n; i++ {
			s = leaf(s)
		}
		fmt.Println(s)
	}
}
