// traceargs: functions with known arguments and results for --trace:
// several integer widths with negative values, strings, float32 and
// float64, bool, a slice, a pointer-receiver method, multiple and named
// results, an error result nil and not nil, a struct by value, an
// interface argument, recursion, stack growth and a recovered panic.
// Every call and its values are fixed; main prints a summary so the
// instrumented run's output can be compared with the original's.
// Builds with every Go from 1.15 (no generics, no any).
package main

import (
	"errors"
	"fmt"
	"os"
)

//go:noinline
func add(a, b int) int { return a + b }

//go:noinline
func widths(a int8, b int16, c int32, d int64, e uint8, f uint16, g uint32, h uint64) int64 {
	return int64(a) + int64(b) + int64(c) + d + int64(e) + int64(f) + int64(g) + int64(h)
}

//go:noinline
func floats(x float32, y float64) (float32, float64) { return x * 2, y / 2 }

//go:noinline
func greet(name string, loud bool) string {
	if loud {
		return "HELLO " + name
	}
	return "hello " + name
}

//go:noinline
func sum(xs []int) (total int) {
	for _, x := range xs {
		total += x
	}
	return total
}

//go:noinline
func byteCount(b []byte) int { return len(b) }

type counter struct{ n int }

//go:noinline
func (c *counter) Inc(by int) int {
	c.n += by
	return c.n
}

//go:noinline
func divmod(a, b int) (q, r int) {
	q = a / b
	r = a % b
	return
}

var errNegative = errors.New("negative")

type parseError struct{ at int }

func (e *parseError) Error() string { return fmt.Sprintf("parse error at %d", e.at) }

//go:noinline
func check(v int) error {
	if v < 0 {
		return errNegative
	}
	if v > 100 {
		return &parseError{at: v}
	}
	return nil
}

//go:noinline
func lookup(key string) (int, error) {
	if key == "" {
		return 0, errNegative
	}
	return len(key), nil
}

type point struct {
	X, Y int32
	Name string
}

//go:noinline
func norm1(p point) int64 {
	x, y := int64(p.X), int64(p.Y)
	if x < 0 {
		x = -x
	}
	if y < 0 {
		y = -y
	}
	return x + y
}

//go:noinline
func describe(v interface{}) string { return fmt.Sprintf("%T", v) }

//go:noinline
func fact(n int) int {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

// deep recurses with a big frame so the goroutine's stack grows (and is
// copied) while calls are in flight.
//
//go:noinline
func deep(n int) int {
	var pad [64]int
	pad[n%64] = n
	if n == 0 {
		return pad[0]
	}
	return deep(n-1) + pad[n%64] - n + 1
}

//go:noinline
func mustPositive(v int) int {
	if v < 0 {
		panic("negative")
	}
	return v
}

func safePositive(v int) (r int) {
	defer func() {
		if recover() != nil {
			r = -1
		}
	}()
	return mustPositive(v)
}

func main() {
	c := &counter{}
	fmt.Println(add(3, 6), add(-7, 2))
	fmt.Println(widths(-2, -300, -70000, -5000000000, 200, 60000, 4000000000, 1<<63+5))
	fmt.Println(floats(1.5, -2.25))
	fmt.Println(greet("gopher", false), greet("world", true))
	fmt.Println(sum([]int{1, 2, 3, 4}), byteCount([]byte("bytes!")))
	fmt.Println(c.Inc(5), c.Inc(-2))
	fmt.Println(divmod(17, 5))
	fmt.Println(check(5), check(-1), check(1000))
	fmt.Println(lookup("four"))
	fmt.Println(lookup(""))
	fmt.Println(norm1(point{X: -3, Y: 4, Name: "p"}))
	fmt.Println(describe(42), describe("s"), describe(c), describe(nil))
	fmt.Println(fact(5))
	fmt.Println(deep(2000))
	fmt.Println(safePositive(7), safePositive(-7))
	if len(os.Args) > 1 {
		mustPositive(-1) // unrecovered: exits 2 with Go's panic message
	}
}
