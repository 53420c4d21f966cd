// Generic functions and methods with known arguments and results, for
// --trace (tests/stubs/t_trace_generics.sh): each call is printed as
// "CALL func type args... -> result", in call order, beside the traced one.
package main

import (
	"fmt"
	"strconv"
)

var never bool

//go:noinline
func rare() { fmt.Println("never") }

// Max has a stack check (the call to rare) so that it is timed, and so traced.
//
//go:noinline
func Max[T int | float64 | string](a, b T) T {
	if never {
		rare()
	}
	if a > b {
		return a
	}
	return b
}

type Box[T any] struct{ v T }

//go:noinline
func (b *Box[T]) Swap(k int, nv T) T {
	if never {
		rare()
	}
	old := b.v
	b.v = nv
	return old
}

// Zero returns nv only for a negative k: the zero value otherwise.
//
//go:noinline
func (b *Box[T]) Zero(k int, nv T) T {
	if never {
		rare()
	}
	var z T
	if k < 0 {
		z = nv
	}
	return z
}

func show(v interface{}) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprintf("%p", v) // a *Box
}

func call(name, typ string, r interface{}, args ...interface{}) {
	s := "CALL " + name + " " + typ
	for _, a := range args {
		s += " " + show(a)
	}
	fmt.Println(s, "->", show(r))
}

func main() {
	for _, p := range [][2]int{{3, 9}, {-7, -70}, {1 << 40, 5}} {
		call("Max", "int", Max(p[0], p[1]), p[0], p[1])
	}
	for _, p := range [][2]float64{{1.5, -2}, {-0.25, 3e10}} {
		call("Max", "float64", Max(p[0], p[1]), p[0], p[1])
	}
	for _, p := range [][2]string{{"pear", "apple"}, {"", "kiwi"}, {"a longer string than sixteen", "b"}} {
		call("Max", "string", Max(p[0], p[1]), p[0], p[1])
	}
	bi := &Box[int]{7}
	for i, v := range []int{8, -9, 1 << 50} {
		call("Swap", "int", bi.Swap(i+1, v), bi, i+1, v)
	}
	call("Zero", "int", bi.Zero(11, 12), bi, 11, 12)
	call("Zero", "int", bi.Zero(-1, -12), bi, -1, -12)
	bs := &Box[string]{"x"}
	for i, v := range []string{"yz", "", "gopher"} {
		call("Swap", "string", bs.Swap(100+i, v), bs, 100+i, v)
	}
	call("Zero", "string", bs.Zero(-13, "w"), bs, -13, "w")
	call("Zero", "string", bs.Zero(14, "v"), bs, 14, "v")
}
