// tracedeep recurses deeper than a goroutine has pending trace records
// for (16384 open timed calls), so the deepest traced calls are timed but
// not recorded (t_trace): main.rec(20000, 1, 2, 3), then main.rec(10, 4,
// 5, 6), whose calls all fit.
package main

import "fmt"

//go:noinline
func rec(n, a, b, c int) int {
	if n == 0 {
		return a + b + c
	}
	return rec(n-1, a+1, b, c-1) + n%7
}

func main() {
	fmt.Println(rec(20000, 1, 2, 3), rec(10, 4, 5, 6))
}
