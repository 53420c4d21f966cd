// iface: methods through interfaces (value and pointer receivers), method
// values, reflection, closures, generics and goroutine start functions.
package main

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
)

type Shape interface {
	Area() int
	Scale(k int)
}

// Rect has value-receiver Area and pointer-receiver Scale.
type Rect struct{ W, H int }

//go:noinline
func (r Rect) Area() int {
	if never {
		rare()
	}
	return r.W * r.H
}

//go:noinline
func (r *Rect) Scale(k int) {
	if never {
		rare()
	}
	r.W *= k
	r.H *= k
}

// Square has only pointer receivers.
type Square struct{ S int }

//go:noinline
func (s *Square) Area() int {
	if never {
		rare()
	}
	return s.S * s.S
}

//go:noinline
func (s *Square) Scale(k int) {
	if never {
		rare()
	}
	s.S *= k
}

type Namer interface{ Name() string }

// Val is a value type stored directly in an interface.
type Val int

//go:noinline
func (v Val) Name() string { return fmt.Sprintf("val%d", int(v)) }

// apply calls f n times; f is a closure, so each call is a real call.
//
//go:noinline
func apply(f func(int) int, n int) int {
	acc := 0
	for i := 0; i < n; i++ {
		acc += f(i)
	}
	return acc
}

//go:noinline
func makeAdder(k int) func(int) int {
	return func(x int) int { // main.makeAdder.func1
		if never {
			rare()
		}
		return x + k
	}
}

//go:noinline
func worker(id int, out []int, wg *sync.WaitGroup) {
	out[id] = id * id
	wg.Done()
}

//go:noinline
func totalArea(shapes []Shape) int {
	t := 0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

func main() {
	// Interfaces: 1000 rounds over 2 Rects and 3 Squares.
	shapes := []Shape{&Rect{1, 2}, &Square{3}, &Rect{4, 5}, &Square{6}, &Square{7}}
	var byValue []Shape // none: Rect's Scale needs a pointer
	_ = byValue
	total := 0
	for i := 0; i < 1000; i++ {
		total += totalArea(shapes) % 1000003
	}
	for i := 0; i < 7; i++ {
		for _, s := range shapes {
			s.Scale(1) // 7 * 5 Scale calls: 14 Rect, 21 Square
		}
	}
	fmt.Println("total area:", total)

	// Value-receiver method through an interface holding a value (not a pointer).
	var names []string
	for i := 0; i < 50; i++ {
		var n Namer = Val(i % 5)
		names = append(names, n.Name())
	}
	sort.Strings(names)
	fmt.Println("names:", names[0], names[len(names)-1], len(names))

	// Method value: bound to a copy of r; called 30 times.
	r := Rect{2, 3}
	area := r.Area
	a := 0
	for i := 0; i < 30; i++ {
		a += area()
	}
	fmt.Println("method value:", a)

	// Reflection: 20 calls of (*Square).Area through reflect.
	sq := &Square{4}
	m := reflect.ValueOf(sq).MethodByName("Area")
	ra := 0
	for i := 0; i < 20; i++ {
		ra += int(m.Call(nil)[0].Int())
	}
	fmt.Println("reflect:", ra)

	// Closures: an adder closure called 12345 times, a capturing closure 777 times.
	add5 := makeAdder(5)
	fmt.Println("closure:", apply(add5, 12345))
	count := 0
	fmt.Println("capture:", apply(func(x int) int { // main.main.func1
		if never {
			rare()
		}
		count++
		return x * 2
	}, 777), count)

	generics() // generics.go; nothing before Go 1.18

	// Goroutines: worker started 64 times.
	out := make([]int, 64)
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go worker(i, out, &wg)
	}
	wg.Wait()
	s := 0
	for _, v := range out {
		s += v
	}
	fmt.Println("workers:", s)
}

// never is false; a call under "if never" never runs, but it makes a small
// function a non-leaf, which gives it a stack-bound check in its prologue.
// gorewrite counts only functions that have that check (small leaf
// functions have none), so every function asserted in ./expect has one.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
