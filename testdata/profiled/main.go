// profiled: writes a CPU profile of a busy recursive function to the file
// named by its argument, for tests/t_tools.sh (pprof reads it with the
// instrumented binary). Not an expect-file program: its counts depend on
// how long the profiler needs to see samples.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(fib(35))
	pprof.StopCPUProfile()
	f.Close()
}
