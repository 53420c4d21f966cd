// leaf: functions without a stack-bound check (small leaf functions, which
// the linker makes NOSPLIT) with exactly known counts: called from 8
// goroutines, a switch, a global read (a RIP-relative load relocated), a
// loop whose back edge lands inside the first 5 bytes (skipped, with a
// reason), and a method called on a nil pointer and recovered (its first
// instruction can fault: never relocated, so the panic is Go's own).
// spin is a leaf that runs long enough to be timed against the program's
// own clock: with LEAF_OUT set, the program writes the nanoseconds it
// measured around spin's calls there (tests/rewriter/t_leaf.sh compares gostat's).
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// add is a leaf: lea + ret, exactly 5 bytes relocated.
//
//go:noinline
func add(a, b int) int { return a + b }

// classify is a small switch: compares and conditional branches at entry.
//
//go:noinline
func classify(x int) int {
	switch x {
	case 1:
		return 10
	case 2:
		return 20
	case 3:
		return 30
	case 7:
		return 70
	}
	return -1
}

var global = 41

// readGlobal reads a package variable: a RIP-relative load at entry.
//
//go:noinline
func readGlobal() int { return global + 1 }

// countdown's loop starts right at its entry: its back edge lands inside
// the first 5 bytes.
//
//go:noinline
func countdown(n int) int {
	for n > 0 {
		n -= 3
	}
	return n
}

// spin is a leaf with a loop that starts after its first instructions.
//
//go:noinline
func spin(n int) int {
	s := 1
	for i := 0; i < n; i++ {
		s = s*31 + i
	}
	return s
}

// spinCalls calls spin 20 times and returns the nanoseconds measured
// around the calls (the time.Now pairs; gostat's time lies inside).
//
//go:noinline
func spinCalls() (int64, int) {
	var around int64
	x := 0
	for i := 0; i < 20; i++ {
		t0 := time.Now()
		x += spin(1000000 + i)
		around += int64(time.Since(t0))
	}
	return around, x
}

type box struct{ v int }

// get loads through its receiver first: a nil receiver faults there.
//
//go:noinline
func (b *box) get() int { return b.v }

// worker calls add n times; it has a check (it calls wg.Done).
//
//go:noinline
func worker(n int, out *int, wg *sync.WaitGroup) {
	defer wg.Done()
	s := 0
	for i := 0; i < n; i++ {
		s = add(s, i&1)
	}
	*out = s
}

// safeGet recovers the nil dereference in get.
//
//go:noinline
func safeGet(b *box) (v int, err string) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Sprint(r)
		}
	}()
	return b.get(), ""
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "unrecovered" {
		// first, so that the stack words the traceback prints are the same
		// in every run; a call on a zero box just before leaves 0 in the
		// result slot that Go <= 1.16 prints as get's second word
		var zero, nb *box = &box{}, nil
		z := zero.get()
		n := nb.get()
		fmt.Println(z, n)
	}
	var wg sync.WaitGroup
	sums := make([]int, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go worker(100000, &sums[g], &wg)
	}
	wg.Wait()
	total := 0
	for _, s := range sums {
		total += s
	}
	fmt.Println("sum", total)

	hist := map[int]int{}
	for i := 0; i < 1000; i++ {
		hist[classify(i%10)]++
	}
	fmt.Println("classify", hist[10], hist[20], hist[30], hist[70], hist[-1])

	g := 0
	for i := 0; i < 500; i++ {
		g += readGlobal()
	}
	fmt.Println("global", g)

	c := 0
	for i := 0; i < 300; i++ {
		c += countdown(i)
	}
	fmt.Println("countdown", c)

	b := &box{v: 5}
	got := 0
	for i := 0; i < 200; i++ {
		v, _ := safeGet(b)
		got += v
	}
	_, err := safeGet(nil)
	fmt.Println("box", got, err)

	around, x := spinCalls()
	fmt.Println("spin", x != 0)
	if path := os.Getenv("LEAF_OUT"); path != "" {
		f, e := os.Create(path)
		if e == nil {
			fmt.Fprintf(f, "{\"spin_around_ns\": %d}\n", around)
			f.Close()
		}
	}
}
