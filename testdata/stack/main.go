// stack: deep recursion with big frames (many stack growths and copies),
// frames over 4 KiB and over 64 KiB, and switches compiled to jump tables.
package main

import (
	"fmt"
	"runtime"
)

// fill writes into a caller's frame so the arrays stay on the stack.
//
//go:noinline
func fill(b []byte, v int) {
	if never {
		rare()
	}
	for i := range b {
		b[i] = byte(v + i)
	}
}

// deep recurses n+1 times with a 256-byte local array: depth 100000 needs
// more than 30 MB of stack, so the goroutine stack is grown (copied) many times.
//
//go:noinline
func deep(n int) int {
	var buf [256]byte
	buf[n%256] = byte(n)
	buf[(n*3+1)%256] = byte(n >> 8)
	if n == 0 {
		return int(buf[0])
	}
	r := deep(n - 1) // buf must survive the stack copies made meanwhile
	return (r*31 + int(buf[n%256]) + int(buf[(n*3+1)%256])) % 1000003
}

// big4k has a frame over 4 KiB (the "large frame" stack check).
//
//go:noinline
func big4k(v int) int {
	var a [5000]byte
	fill(a[:], v)
	return int(a[v%5000]) + int(a[4999])
}

// big64k has a frame over 64 KiB and recurses, forcing growth with a huge frame.
//
//go:noinline
func big64k(depth, v int) int {
	var a [70000]byte
	fill(a[:], v)
	r := int(a[69999]) + int(a[v%70000])
	if depth > 0 {
		r += big64k(depth-1, v+1)
	}
	return r
}

// classify's switch has 12 dense integer cases: a jump table.
//
//go:noinline
func classify(x int) int {
	if never {
		rare()
	}
	switch x {
	case 0:
		return 100
	case 1:
		return 7
	case 2:
		return 13
	case 3:
		return 21
	case 4:
		return 34
	case 5:
		return 55
	case 6:
		return 89
	case 7:
		return 144
	case 8:
		return 233
	case 9:
		return 377
	case 10:
		return 610
	case 11:
		return 987
	default:
		return -1
	}
}

// kind switches on a string; Go 1.20+ first switches on its length.
//
//go:noinline
func kind(s string) int {
	if never {
		rare()
	}
	switch s {
	case "a":
		return 1
	case "bb":
		return 2
	case "ccc":
		return 3
	case "dddd":
		return 4
	case "eeeee":
		return 5
	case "ffffff":
		return 6
	case "ggggggg":
		return 7
	case "hhhhhhhh":
		return 8
	case "iiiiiiiii":
		return 9
	}
	return 0
}

// parked waits on ch, its goroutine's stack grown by deep and mostly
// unused: the collections main runs meanwhile shrink it (each a copy to a
// new place), so the call returns on another stack than it entered on.
//
//go:noinline
func parked(ch chan int) int {
	if never {
		rare()
	}
	return <-ch
}

// shrunk runs 20 goroutines that grow their stacks, then park in parked
// while the stacks are shrunk under them, then release them.
func shrunk() int {
	const n = 20
	chs := make([]chan int, n)
	out := make(chan int)
	for i := range chs {
		chs[i] = make(chan int)
		go func(ch chan int) { deep(2000); out <- parked(ch) }(chs[i])
	}
	for i := 0; i < 4; i++ {
		runtime.GC()
	}
	sum := 0
	for i, ch := range chs {
		ch <- i
		sum += <-out
	}
	return sum
}

func main() {
	// deep(100000) on the main goroutine and again on a new goroutine.
	fmt.Println("deep:", deep(100000))
	done := make(chan int)
	go func() { done <- deep(100000) }()
	fmt.Println("deep (goroutine):", <-done)
	fmt.Println("shrunk:", shrunk())

	s4 := 0
	for i := 0; i < 1000; i++ {
		s4 += big4k(i)
	}
	fmt.Println("big4k:", s4)

	s64 := 0
	for i := 0; i < 10; i++ {
		s64 += big64k(19, i) // 20 calls each
	}
	fmt.Println("big64k:", s64)

	sc := 0
	for i := 0; i < 100000; i++ {
		sc += classify((i*7919)%15 - 1) // values -1..13
	}
	fmt.Println("classify:", sc)

	words := []string{"", "a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg", "hhhhhhhh", "iiiiiiiii", "x", "yy", "zzzzzzzzzz"}
	sk := 0
	for i := 0; i < 26000; i++ {
		sk += kind(words[i%len(words)])
	}
	fmt.Println("kind:", sk)
}

// never is false; a call under "if never" never runs, but it makes a small
// function a non-leaf, which gives it a stack-bound check in its prologue.
// gorewrite counts only functions that have that check (small leaf
// functions have none), so every function asserted in ./expect has one.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
