// procend: a program that ends with goroutines still running and its
// main function never returning, for what a stats file keeps of the
// process's end. It starts five goroutines from one go statement that
// block forever, sleeps 300 ms and exits with os.Exit(3): main.main's
// call and the five goroutines are still open then.
package main

import (
	"os"
	"time"
)

var never = make(chan struct{})

//go:noinline
func blocker() {
	<-never
}

//go:noinline
func spawn(n int) {
	for i := 0; i < n; i++ {
		go blocker()
	}
}

func main() {
	spawn(5)
	time.Sleep(300 * time.Millisecond)
	os.Exit(3)
}
