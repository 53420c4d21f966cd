// callers: runtime.Callers, runtime.Caller, runtime.FuncForPC and
// CallersFrames called from inside counted functions. The printed function
// names, files and lines must be identical in the instrumented program.
package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
)

// who prints the stack above it, as runtime.Callers sees it.
//
//go:noinline
func who(tag string) {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(1, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var parts []string
	for {
		f, more := frames.Next()
		parts = append(parts, fmt.Sprintf("%s@%s:%d", f.Function, filepath.Base(f.File), f.Line))
		if !more {
			break
		}
	}
	fmt.Printf("%s: %s\n", tag, strings.Join(parts, " <- "))
}

// whoFunc resolves each raw PC with FuncForPC (no inline expansion).
//
//go:noinline
func whoFunc(tag string) {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(0, pcs)
	var parts []string
	for _, pc := range pcs[:n] {
		f := runtime.FuncForPC(pc - 1)
		if f == nil {
			parts = append(parts, "?")
			continue
		}
		file, line := f.FileLine(pc - 1)
		parts = append(parts, fmt.Sprintf("%s@%s:%d", f.Name(), filepath.Base(file), line))
	}
	fmt.Printf("%s: %s\n", tag, strings.Join(parts, " <- "))
}

//go:noinline
func caller(skip int) string {
	pc, file, line, ok := runtime.Caller(skip)
	if !ok {
		return "no caller"
	}
	return fmt.Sprintf("%s@%s:%d", runtime.FuncForPC(pc).Name(), filepath.Base(file), line)
}

type T struct{ depth int }

//go:noinline
func (t *T) Walk(n int) {
	if n == 0 {
		who("method")
		return
	}
	t.Walk(n - 1)
}

//go:noinline
func run(f func()) { f() }

//go:noinline
func recurse(n int) {
	if n == 0 {
		whoFunc("recurse")
		return
	}
	recurse(n - 1)
}

//go:noinline
func inDefer() {
	defer func() { // main.inDefer.func1
		recover()
		who("deferred")
	}()
	panic("boom")
}

//go:noinline
func helper() int {
	if never {
		rare()
	}
	return 42
}

func main() {
	who("main")
	whoFunc("main")
	fmt.Println("caller(0):", caller(0))
	fmt.Println("caller(1):", caller(1))
	(&T{}).Walk(3)
	run(func() { who("closure") }) // main.main.func1
	recurse(4)
	inDefer()
	done := make(chan bool)
	go func() { // main.main.func2
		who("goroutine")
		done <- true
	}()
	<-done
	// A function value's entry must resolve to the function's own name.
	fmt.Println("funcforpc:", runtime.FuncForPC(funcPC(helper)).Name(), helper())
	fmt.Println("funcforpc:", runtime.FuncForPC(funcPC(who)).Name())
}

// funcPC returns a function value's code pointer (its entry).
//
//go:noinline
func funcPC(f interface{}) uintptr {
	return reflect.ValueOf(f).Pointer()
}

// never is false; a call under "if never" never runs, but it makes a small
// function a non-leaf, which gives it a stack-bound check in its prologue.
// gorewrite counts only functions that have that check (small leaf
// functions have none), so every function asserted in ./expect has one.
var never bool

//go:noinline
func rare() { println("rare: unreachable") }
