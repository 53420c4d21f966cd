// topdemo: a program for tests/gostat/t_gostat_top.sh (not an expect-file
// program). It first calls alpha 2000000 times, beta 500000 times and gamma
// 7 times, prints "ready", then calls tick and nap (which sleeps 1ms) in
// turn, so tick has a steady, nonzero calls/s and nap takes nearly all of
// the wall time, until the file named by its argument exists.
package main

import (
	"fmt"
	"os"
	"time"
)

var never bool

//go:noinline
func rare() { fmt.Println("never printed") }

//go:noinline
func alpha(i int) int {
	if never {
		rare()
	}
	return i + 1
}

//go:noinline
func beta(i int) int {
	if never {
		rare()
	}
	return i * 3
}

//go:noinline
func gamma(i int) int {
	if never {
		rare()
	}
	return i - 1
}

//go:noinline
func tick(i int) int {
	if never {
		rare()
	}
	return i ^ 5
}

//go:noinline
func nap() {
	if never {
		rare()
	}
	time.Sleep(time.Millisecond)
}

func main() {
	s := 0
	for i := 0; i < 2000000; i++ {
		s += alpha(i)
	}
	for i := 0; i < 500000; i++ {
		s += beta(i)
	}
	for i := 0; i < 7; i++ {
		s += gamma(i)
	}
	fmt.Println("ready", s)
	for i := 0; ; i++ {
		tick(i)
		nap()
		if i%50 == 0 {
			if _, err := os.Stat(os.Args[1]); err == nil {
				return
			}
		}
	}
}
