// shortret: methods whose return has fewer than 5 bytes before it that
// replay without a possible fault: the instruction before each ret stores
// through the receiver (4 bytes, then the 1-byte ret), so the return patch
// must cover that store and the return trampoline replays it behind a nil
// guard (docs/timing.md "Entry and return hooks"). clamp's store is its
// first access to the receiver: a nil receiver faults there, in the
// replayed instruction, and the panic must be Go's own (recovered here;
// unrecovered with the "unrecovered" argument). spin loops long enough to
// be timed against the program's own clock: with SHORTRET_OUT set, the
// program writes the nanoseconds it measured around spin's calls there
// (tests/rewriter/t_shortret.sh compares gostat's). Ten of spin's calls go
// through the compiler's wrapper for a promoted method, which ends in a
// jump to spin (a tail call): timed up to that jump.
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"time"
)

type acc struct{ last, neg, sum int }

// clamp stores its argument, negative ones apart: each branch ends in a
// store through a and a ret, the first one followed by the other branch's
// code (no int3 padding to cover instead).
//
//go:noinline
func (a *acc) clamp(v int) {
	v = v*3 + 1
	if v < 0 {
		a.neg = v
		return
	}
	a.last = v
}

type spinner struct{ pad, result int }

// spin loops, then stores its result through s right before the ret.
//
//go:noinline
func (s *spinner) spin(n int) {
	x := 1
	for i := 0; i < n; i++ {
		x = x*31 + i
	}
	if x < 0 {
		s.pad = x
		return
	}
	s.result = x
}

// box's getters are leaves whose first return is too near the entry for
// a return hook of its own: with the register ABI, test, jcc, a load through b
// and the ret end 9 bytes in, 4 of them after the 5 the entry's jmp needs.
// The entry's patch then covers through that ret, which the entry
// trampoline times. pick's load faults on a nil b with d > 0 there, in
// the entry trampoline: the panic must be Go's own (recovered here;
// unrecovered with the "unrecovered-pick" argument).
type box struct{ v int }

//go:noinline
func (b *box) get() int {
	if b == nil {
		return 0
	}
	return b.v
}

//go:noinline
func (b *box) pick(d int) int {
	if d > 0 {
		return b.v
	}
	return d
}

// safePick recovers the nil dereference in pick's load.
//
//go:noinline
func safePick(b *box) (err string) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Sprint(r)
		}
	}()
	b.pick(1)
	return ""
}

// spinnerer is called through an interface, so that the compiler's
// wrapper for the promoted method (*wrapped).spin is what runs: it loads
// the embedded pointer and ends in a jump to (*spinner).spin (a tail call).
type spinnerer interface{ spin(n int) }

type wrapped struct {
	*spinner
}

// timedCalls calls s.spin n times and returns the nanoseconds measured
// around the calls (gostat's time lies inside).
//
//go:noinline
func timedCalls(s spinnerer, n int) int64 {
	var around int64
	for i := 0; i < n; i++ {
		t0 := time.Now()
		s.spin(1000000 + i)
		around += int64(time.Since(t0))
	}
	return around
}

// safeClamp recovers the nil dereference in clamp's last store.
//
//go:noinline
func safeClamp(a *acc) (err string) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Sprint(r)
		}
	}()
	a.clamp(7)
	return ""
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "unrecovered" {
		var nb *acc
		nb.clamp(5)
		fmt.Println("not reached")
	}
	if len(os.Args) > 1 && os.Args[1] == "unrecovered-pick" {
		var nb *box
		fmt.Println(nb.pick(2))
	}
	a := &acc{}
	for i := 0; i < 1000; i++ {
		a.clamp(i)
		a.sum += a.last
	}
	fmt.Println("sum", a.sum)
	fmt.Println("nil:", safeClamp(nil))
	b, got := &box{v: 3}, 0
	var nb *box
	for i := 0; i < 1000; i++ {
		got += b.get() + b.pick(i-500) + nb.get()
	}
	fmt.Println("got", got)
	fmt.Println("nil pick:", safePick(nil))
	s := &spinner{}
	around := timedCalls(s, 20)
	around += timedCalls(&wrapped{s}, 10)
	fmt.Println("spin", s.result != 0)
	if out := os.Getenv("SHORTRET_OUT"); out != "" {
		ioutil.WriteFile(out, []byte(fmt.Sprintf("{\"spin_around_ns\": %d}\n", around)), 0o644)
	}
}
