// recursion: plain and mutual recursion with exactly known call counts.
//
//	fib(n) makes fibcalls(n) = fibcalls(n-1) + fibcalls(n-2) + 1 calls,
//	fibcalls(0) = fibcalls(1) = 1, so fib(25) is called 242785 times.
//	isEven(n) / isOdd(n) alternate n+1 calls in total.
//	ack(2, 3) is called 44 times (Ackermann, computed with a debug counter).
package main

import (
	"fmt"
	"os"
	"strconv"
)

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func isEven(n int) bool {
	if n == 0 {
		return true
	}
	return isOdd(n - 1)
}

//go:noinline
func isOdd(n int) bool {
	if n == 0 {
		return false
	}
	return isEven(n - 1)
}

//go:noinline
func ack(m, n int) int {
	if m == 0 {
		return n + 1
	}
	if n == 0 {
		return ack(m-1, 1)
	}
	return ack(m-1, ack(m, n-1))
}

func main() {
	n := 25
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "usage: recursion [n]")
			os.Exit(1)
		}
		n = v
	}
	fmt.Printf("fib(%d) = %d\n", n, fib(n))
	// isEven(1000): 1001 calls, 501 to isEven and 500 to isOdd.
	fmt.Printf("isEven(1000) = %v\n", isEven(1000))
	// isOdd(777): 778 calls, 389 to isOdd and 389 to isEven.
	fmt.Printf("isOdd(777) = %v\n", isOdd(777))
	fmt.Printf("ack(2, 3) = %d\n", ack(2, 3))
}
