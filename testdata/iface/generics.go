//go:build go1.18
// +build go1.18

// Generics, for the toolchains that have them (Go 1.18 on).
package main

import "fmt"

type Number interface{ ~int | ~float64 }

//go:noinline
func Sum[T Number](xs []T) T {
	if never {
		rare()
	}
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

//go:noinline
func Max[T int | string](a, b T) T {
	if never {
		rare()
	}
	if a > b {
		return a
	}
	return b
}

//go:noinline
func generics() {
	// Generics: Sum for int (4 calls) and float64 (3 calls); Max for int (5) and string (6).
	ints := []int{1, 2, 3, 4, 5}
	floats := []float64{0.5, 1.5, 2.5}
	si, sf := 0, 0.0
	for i := 0; i < 4; i++ {
		si += Sum(ints)
	}
	for i := 0; i < 3; i++ {
		sf += Sum(floats)
	}
	fmt.Println("generic sums:", si, sf)
	mi := 0
	for i := 0; i < 5; i++ {
		mi = Max(mi, i*3)
	}
	ms := ""
	for _, s := range []string{"pear", "apple", "zebra", "kiwi", "mango", "fig"} {
		ms = Max(ms, s)
	}
	fmt.Println("generic max:", mi, ms)
}
