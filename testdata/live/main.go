// live: calls work() a known number of times, says so, then waits until it
// is killed, for tests/stubs/t_startup.sh (counts must be visible while it runs
// and stay readable after kill -9). Not an expect-file program.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

var never bool

//go:noinline
func rare() { fmt.Println("never printed") }

//go:noinline
func work(i int) int {
	if never {
		rare()
	}
	return i * 2
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	s := 0
	for i := 0; i < n; i++ {
		s += work(i)
	}
	fmt.Println("done", s)
	if len(os.Args) > 2 && os.Args[2] == "wait" {
		time.Sleep(time.Hour)
	}
}
