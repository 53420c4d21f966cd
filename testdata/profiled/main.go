// profiled: writes a CPU profile of a busy recursive function to the file
// named by its argument, for tests/rewriter/t_tools.sh (pprof reads it with the
// instrumented binary). Not an expect-file program. After printing fib(35)
// it computes it four more times, so that the profile holds about a second
// of CPU (~100 samples) whatever the machine's load: with fib(35) alone a
// run had 7 samples, and in the instrumented binary roughly half of them
// land in the trampolines (booked to runtime._ExternalCode), so a run could
// have no sample inside fib at all.
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

var sink int

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
	for i := 0; i < 4; i++ {
		sink += fib(35)
	}
	pprof.StopCPUProfile()
	f.Close()
}
