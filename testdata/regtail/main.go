// regtail: the compiler's wrappers for methods promoted from an embedded
// interface. (*boxed).area loads the method from the embedded value's itab
// and, in Go 1.27, ends in jmp reg after its frame (if any) is popped: a
// tail call through a register (tests/rewriter/t_regtail.sh checks the
// shape with go tool objdump). It must be counted like any function.
// A switch over dense cases (a jump table: jmp reg after a load from a
// table in rodata, in a frameless function) sits beside it and must stay
// counted exactly too.
package main

import "fmt"

type shape interface{ area(n int) int }

type square struct{ k int }

//go:noinline
func (s *square) area(n int) int { return s.k * n * n }

// boxed embeds the interface: its promoted area is a compiler wrapper.
type boxed struct{ shape }

// pick switches over dense cases: a jump table from Go 1.19 on.
//
//go:noinline
func pick(i int) int {
	switch i % 11 {
	case 0:
		return i * 3
	case 1:
		return i + 23
	case 2:
		return i ^ 37
	case 3:
		return i << 2
	case 4:
		return i - 53
	case 5:
		return i | 67
	case 6:
		return i * 71
	case 7:
		return i + 5
	case 8:
		return i * 7
	case 9:
		return i ^ 5
	default:
		return i & 89
	}
}

//go:noinline
func sum(s shape, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		t += s.area(i) + pick(i)
	}
	return t
}

func main() {
	var s shape = &boxed{&square{k: 3}}
	fmt.Println(sum(s, 700))
}
