// mergecli: a tiny command-line program with exactly known call counts
// (main.step 150, main.half 2, main.main 1 per run), run thousands of times
// by tests/stubs/t_merge.sh (GOSTAT_MERGE). "sleep MS" sleeps between its
// two halves, so a test can kill it mid-way or watch its file while it
// runs; "exit" ends it through os.Exit(3).
package main

import (
	"os"
	"strconv"
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
	if len(os.Args) > 2 && os.Args[1] == "sleep" {
		ms, _ := strconv.Atoi(os.Args[2])
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	s += half(50)
	if s == 0 {
		println("impossible")
	}
	if len(os.Args) > 1 && os.Args[1] == "exit" {
		os.Exit(3)
	}
}
