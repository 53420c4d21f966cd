// mergecli: a tiny command-line program with exactly known call counts,
// run thousands of times by tests/stubs/t_merge.sh (GOSTAT_MERGE). With
// the argument "sleep" it sleeps between its two halves, so a test can
// kill it mid-way; with "exit" it ends through os.Exit(3).
package main

import (
	"os"
	"time"
)

//go:noinline
func step(i int) int { return i*3 + 1 }

//go:noinline
func half(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += step(i)
	}
	return s
}

func main() {
	s := half(100)
	if len(os.Args) > 1 && os.Args[1] == "sleep" {
		time.Sleep(10 * time.Second)
	}
	s += half(50)
	if s == 0 {
		println("impossible")
	}
	if len(os.Args) > 1 && os.Args[1] == "exit" {
		os.Exit(3)
	}
}
