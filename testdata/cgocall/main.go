// cgocall: Go calling C, C calling back into Go (from the main goroutine
// and from 4 goroutines at once), a C function that calls Go recursively.
package main

/*
#include <stdint.h>
extern int64_t goSquare(int64_t);
extern int64_t goFact(int64_t);
static int64_t c_sum_squares(int n) {
	int64_t s = 0;
	for (int i = 0; i < n; i++)
		s += goSquare(i);
	return s;
}
static int c_add(int a, int b) { return a + b; }
static int64_t c_fact(int64_t n) { return n <= 1 ? 1 : n * goFact(n - 1); }
*/
import "C"

import (
	"fmt"
	"sync"
)

var never bool

//go:noinline
func rare() { fmt.Println("never") }

//export goSquare
//go:noinline
func goSquare(x C.int64_t) C.int64_t {
	if never {
		rare()
	}
	return x * x
}

// goFact and c_fact call each other: 10 levels deep for 10!.
//
//export goFact
//go:noinline
func goFact(n C.int64_t) C.int64_t {
	if never {
		rare()
	}
	return C.c_fact(n)
}

//go:noinline
func addViaC(a, b int) int {
	if never {
		rare()
	}
	return int(C.c_add(C.int(a), C.int(b)))
}

func main() {
	t := 0
	for i := 0; i < 1000; i++ {
		t += addViaC(i, 1)
	}
	fmt.Println("sum via C:", t)
	fmt.Println("squares via callbacks:", C.c_sum_squares(100))
	var wg sync.WaitGroup
	res := make([]int64, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			res[g] = int64(C.c_sum_squares(C.int(50 + g)))
		}(g)
	}
	wg.Wait()
	fmt.Println("concurrent:", res)
	fmt.Println("10! =", goFact(10))
}
