// leaffault: a fault at a non-nil address inside a leaf function's first
// instruction (a load through its receiver, which gorewrite relocates and
// guards): a wild pointer to an unmapped page (SIGSEGV) and a page of a
// mapped file cut short by truncation (SIGBUS). The first argument picks
// the case: "wild" or "bus" dies with the runtime's fatal "unexpected fault
// address" traceback; "recover-wild" and "recover-bus" recover the fault
// under debug.SetPanicOnFault(true) and print the recovered stack (the
// functions runtime.Callers names, then the function lines of
// debug.Stack()). tests/rewriter/t_leaf_fault.sh compares both with the
// original binary's.
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"
)

type box struct{ v int }

// get loads through its receiver first: the load gorewrite relocates.
//
//go:noinline
func (b *box) get() int { return b.v }

// wildAddr: no mapping of the program, Go's heap or gorewrite's segments
// lies there (the program checks /proc/self/maps).
const wildAddr = 0x10000000

// busAddr: where the truncated file is mapped (a hint the kernel honours
// when the range is free, as it is without address randomization).
const busAddr = 0x20000000

//go:noinline
func wildBox() *box { return (*box)(unsafe.Pointer(uintptr(wildAddr))) }

// busBox maps two pages of a file and truncates it to nothing: a read of
// the mapping raises SIGBUS.
func busBox() *box {
	f, err := ioutil.TempFile("", "leaffault")
	check(err)
	defer os.Remove(f.Name())
	check(f.Truncate(8192))
	addr, _, e := syscall.Syscall6(syscall.SYS_MMAP, busAddr, 8192, syscall.PROT_READ,
		syscall.MAP_SHARED, f.Fd(), 0)
	if e != 0 || addr != busAddr {
		fmt.Fprintf(os.Stderr, "mmap at %#x: %#x %v\n", busAddr, addr, e)
		os.Exit(4)
	}
	check(f.Truncate(0))
	check(f.Close())
	return (*box)(unsafe.Pointer(addr + 16))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
}

// unmapped exits when some mapping covers addr.
func unmapped(addr uint64) {
	maps, err := ioutil.ReadFile("/proc/self/maps")
	check(err)
	for _, line := range strings.Split(string(maps), "\n") {
		var lo, hi uint64
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && lo <= addr && addr < hi {
			fmt.Fprintf(os.Stderr, "%#x is mapped: %s\n", addr, line)
			os.Exit(4)
		}
	}
}

// recovered prints the stack seen from the deferred function that
// recovers the fault.
func recovered() {
	r := recover()
	if r == nil {
		fmt.Println("no fault")
		return
	}
	fmt.Println("recovered:", r)
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(0, pcs)])
	for {
		f, more := frames.Next()
		fmt.Println("callers:", f.Function)
		if !more {
			break
		}
	}
	for _, line := range strings.Split(string(debug.Stack()), "\n") {
		if line != "" && !strings.HasPrefix(line, "\t") {
			fmt.Println("stack:", line)
		}
	}
}

//go:noinline
func readRecovered(b *box) int {
	defer recovered()
	return b.get()
}

//go:noinline
func read(b *box) int { return b.get() + 1 }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: leaffault wild|bus|recover-wild|recover-bus")
		os.Exit(4)
	}
	var b *box
	switch strings.TrimPrefix(os.Args[1], "recover-") {
	case "wild":
		unmapped(wildAddr)
		b = wildBox()
	case "bus":
		b = busBox()
	default:
		os.Exit(4)
	}
	if strings.HasPrefix(os.Args[1], "recover-") {
		debug.SetPanicOnFault(true)
		fmt.Println(readRecovered(b))
		return
	}
	fmt.Println(read(b))
}
