// Command callgraph has known call arcs and known self times, for
// tests/stubs/t_callgraph.sh: main.target is called by main.a (70 calls), main.b
// (30), a closure (5), an interface method (11) and main.boom (3, each
// before boom panics: boom's own calls are unwound and never timed);
// main.outer busies itself, then calls main.inner, which busies for a
// different time (the program prints how long each busy loop took, as
// JSON); main.rec recurses 10 deep. With the argument "deep", main.deep
// recurses 100,000 deep instead (direct recursion: one calling context
// once collapsed), then main.ping and main.pong call each other 100,000
// deep and main.tri1, tri2 and tri3 30,000 deep (mutual recursion, folded
// into a few contexts as well). With the argument "fib", main.fib(20)
// makes 21,891 calls from two call sites of its own.
package main

import (
	"encoding/json"
	"os"
	"time"
)

var sink int

//go:noinline
func target(i int) { sink += i }

//go:noinline
func a() {
	for i := 0; i < 70; i++ {
		target(i)
	}
}

//go:noinline
func b() {
	for i := 0; i < 30; i++ {
		target(i)
	}
}

// makeClosure's result is called through a variable: never inlined.
//
//go:noinline
func makeClosure(n int) func() {
	return func() {
		for i := 0; i < n; i++ {
			target(i)
		}
	}
}

type caller interface{ M() }

type S struct{ n int }

//go:noinline
func (s *S) M() {
	for i := 0; i < s.n; i++ {
		target(i)
	}
}

//go:noinline
func boom() {
	target(1)
	panic("boom")
}

//go:noinline
func guard() {
	defer func() { recover() }()
	boom()
}

var outerBusy, innerBusy time.Duration

//go:noinline
func inner() {
	start := time.Now()
	x := sink
	for i := 0; i < 8000000; i++ {
		x = x*31 + i
	}
	sink = x
	innerBusy += time.Since(start)
}

//go:noinline
func outer() {
	start := time.Now()
	x := sink
	for i := 0; i < 20000000; i++ {
		x = x*31 + i
	}
	sink = x
	outerBusy += time.Since(start)
	inner()
}

//go:noinline
func rec(n int) {
	if n > 0 {
		rec(n - 1)
	}
}

//go:noinline
func deep(n int) int {
	if n == 0 {
		return 0
	}
	return deep(n-1) + 1
}

//go:noinline
func ping(n int) int {
	if n == 0 {
		return 0
	}
	return pong(n-1) + 1
}

//go:noinline
func pong(n int) int {
	if n == 0 {
		return 0
	}
	return ping(n-1) + 1
}

// tri1, tri2 and tri3 call each other in a cycle of three.
//
//go:noinline
func tri1(n int) int {
	if n == 0 {
		return 0
	}
	return tri2(n-1) + 1
}

//go:noinline
func tri2(n int) int {
	if n == 0 {
		return 0
	}
	return tri3(n-1) + 1
}

//go:noinline
func tri3(n int) int {
	if n == 0 {
		return 0
	}
	return tri1(n-1) + 1
}

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "deep" {
		d := deep(100000)
		json.NewEncoder(os.Stdout).Encode(map[string]int{"depth": d, "mutual": ping(100000), "cycle3": tri1(30000)})
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "fib" {
		json.NewEncoder(os.Stdout).Encode(map[string]int{"fib": fib(20)})
		return
	}
	a()
	b()
	fn := makeClosure(5)
	fn()
	var c caller = &S{n: 11}
	c.M()
	for i := 0; i < 3; i++ {
		guard()
	}
	for i := 0; i < 5; i++ {
		outer()
	}
	rec(10)
	json.NewEncoder(os.Stdout).Encode(map[string]int64{
		"outer_busy_ns": int64(outerBusy),
		"inner_busy_ns": int64(innerBusy),
	})
}
