// seedprog: the smallest useful Go program for fuzzing seeds: a few
// functions with stack checks, no fmt (keeps the binary near 1 MB).
package main

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	println(fib(10))
}
