// bench: call-cost workloads for `make bench`. Prints checksums only, so the
// original and instrumented runs can be compared; timing is done outside.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
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

// spawn creates and ends n goroutines, at most 64 alive at once: the cost
// of a goroutine's creation and end (goroutine sites hook both).
func spawn(n int) int {
	var wg sync.WaitGroup
	for i := 0; i < n; i += 64 {
		for j := 0; j < 64 && i+j < n; j++ {
			wg.Add(1)
			go func() { wg.Done() }()
		}
		wg.Wait()
	}
	return n
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bench loop|fib|leaf|args4|spawn N")
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
	case "spawn":
		fmt.Println(spawn(n))
	case "leaf":
		s := 0
		for i := 0; i < n; i++ {
			s = leaf(s)
		}
		fmt.Println(s)
	}
}
