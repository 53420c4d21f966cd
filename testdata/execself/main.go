// execself: a program that execs itself, with exactly known call counts
// (tests/stubs/t_exec.sh). "first": main.before 7 calls, then
// syscall.Exec of /proc/self/exe with "second", which makes main.after 11
// calls and exits; main.main once in each image. "fail": main.before 7
// calls, a syscall.Exec of a path that does not exist (it fails), then
// main.after 11 calls in the same process, which exits 0. With
// EXECSELF_WAIT=DIR the image that makes the main.after calls then writes
// DIR/ready and waits for DIR/go (20 s at most), so a test can look at
// the stats files while it runs.
package main

import (
	"os"
	"syscall"
	"time"
)

//go:noinline
func before(i int) int { return i*2 + 1 }

//go:noinline
func after(i int) int { return i*5 + 3 }

func afterPart() {
	s := 0
	for i := 0; i < 11; i++ {
		s += after(i)
	}
	if s == 0 {
		println("impossible")
	}
	if dir := os.Getenv("EXECSELF_WAIT"); dir != "" {
		f, err := os.Create(dir + "/ready")
		if err != nil {
			println("execself:", err.Error())
			os.Exit(1)
		}
		f.Close()
		for i := 0; i < 2000; i++ {
			if _, err := os.Stat(dir + "/go"); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func main() {
	if len(os.Args) < 2 {
		println("usage: execself first|second|fail")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "first", "fail":
		s := 0
		for i := 0; i < 7; i++ {
			s += before(i)
		}
		if s == 0 {
			println("impossible")
		}
		path := "/proc/self/exe"
		if os.Args[1] == "fail" {
			path = "/nonexistent/execself"
		}
		err := syscall.Exec(path, []string{os.Args[0], "second"}, os.Environ())
		if os.Args[1] == "first" {
			println("execself: exec failed:", err.Error())
			os.Exit(1)
		}
		if err == nil {
			println("execself: exec of a missing path succeeded")
			os.Exit(1)
		}
		afterPart()
	case "second":
		afterPart()
	}
}
