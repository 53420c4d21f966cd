// panics: defer, panic and recover with exact counts, output on stderr and
// a non-zero exit status (3) that must pass through unchanged.
package main

import (
	"errors"
	"fmt"
	"os"
)

var errOdd = errors.New("odd")

// mayPanic panics for every multiple of 3.
//
//go:noinline
func mayPanic(i int) int {
	if i%3 == 0 {
		panic(fmt.Sprintf("bad %d", i))
	}
	return i * 2
}

// recoverer is the deferred function; it calls recover directly.
//
//go:noinline
func recoverer(recovered *int) {
	if r := recover(); r != nil {
		*recovered++
	}
}

//go:noinline
func safeCall(i int, recovered *int) (v int) {
	defer recoverer(recovered)
	v = -1
	v = mayPanic(i)
	return v
}

//go:noinline
func cleanup(log *[]int, i int) { *log = append(*log, i) }

// deferLoop defers cleanup n times in a loop (heap-allocated defers).
//
//go:noinline
func deferLoop(n int, log *[]int) {
	for i := 0; i < n; i++ {
		defer cleanup(log, i)
	}
}

// nested panics: a deferred function that panics again while panicking,
// recovered by an outer deferred function.
//
//go:noinline
func repanic() {
	panic("second")
}

//go:noinline
func nested() (msg string) {
	defer func() { // main.nested.func1
		msg = fmt.Sprint(recover())
	}()
	defer repanic()
	panic("first")
}

//go:noinline
func divide(a, b int) (q int, err error) {
	defer func() { // main.divide.func1
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

//go:noinline
func returnsErr(i int) error {
	if never {
		rare()
	}
	if i%2 == 1 {
		return errOdd
	}
	return nil
}

func main() {
	recovered := 0
	sum := 0
	for i := 0; i < 3000; i++ {
		v := safeCall(i, &recovered)
		if v > 0 {
			sum += v
		}
	}
	fmt.Println("recovered:", recovered, "sum:", sum)

	var log []int
	deferLoop(100, &log)
	fmt.Println("deferred:", len(log), log[0], log[99])

	for i := 0; i < 5; i++ {
		fmt.Println("nested:", nested())
	}

	errs := 0
	for i := -5; i <= 5; i++ {
		if _, err := divide(10, i); err != nil {
			errs++
			if i == 0 {
				fmt.Println(err)
			}
		}
	}
	fmt.Println("divide errors:", errs)

	odd := 0
	for i := 0; i < 41; i++ {
		if errors.Is(returnsErr(i), errOdd) {
			odd++
		}
	}
	fmt.Println("odd:", odd)

	fmt.Fprintln(os.Stderr, "panics: exiting with status 3 on purpose")
	os.Exit(3)
}

// never is false; a call under "if never" never runs, but it makes a small
// function a non-leaf, which gives it a stack-bound check in its prologue.
// gorewrite counts only functions that have that check (small leaf
// functions have none), so every function asserted in ./expect has one.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
