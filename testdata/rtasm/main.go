// rtasm: the runtime's assembly called a known number of times. With
// "count N", each of N rounds copies 4 KiB (runtime.memmove), compares two
// equal 4 KiB slices (bytes.Equal: runtime.memequal, then memeqbody),
// finds a byte (strings.IndexByte: internal/bytealg.IndexByteString, then
// indexbytebody) and hashes 64 bytes (sha256.Sum256: two calls of its
// assembly block function). With "fault", memmove and memequal read an
// unmapped address under debug.SetPanicOnFault(true); each recovered
// panic and the functions on its stack are printed, so that an
// instrumented copy must print the same. tests/rewriter/t_runtime_asm.sh
// runs it.
package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"math/big"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"unsafe"
)

const size = 4096

func count(what string, n int) {
	src := bytes.Repeat([]byte("abcdefgh"), size/8)
	dst := make([]byte, size)
	other := append([]byte(nil), src...)
	s := string(append(bytes.Repeat([]byte("abcdefgh"), 16), 'z'))
	x := new(big.Int).Lsh(big.NewInt(5), 500)
	z := new(big.Int)
	total := 0
	for i := 0; i < n; i++ {
		switch what {
		case "copy":
			total += copy(dst, src)
		case "equal":
			if bytes.Equal(src, other) {
				total++
			}
		case "index":
			total += strings.IndexByte(s, 'z')
		case "crc32":
			total += int(crc32.ChecksumIEEE(src) & 1)
		case "bigadd":
			z.Add(x, x)
			total += z.BitLen()
		case "sha256":
			sum := sha256.Sum256(src[:64])
			total += int(sum[0])
		}
	}
	fmt.Println(what, "rounds", n, "total", total)
}

// unmapped: n bytes at an address no Go program maps (far below the heap
// arenas at 0xc000000000, far above the text).
// Built from a header: slicing an array pointer would touch it here.
func unmapped(n int) []byte {
	var b []byte
	h := (*reflect.SliceHeader)(unsafe.Pointer(&b))
	h.Data, h.Len, h.Cap = 0x100000000000, n, n
	return b
}

// stack prints the recovered value and the functions from the panic
// down to main.main (no addresses: they differ between the two copies).
func stack(what string) {
	r := recover()
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var names []string
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if f.Function == "main.main" || !more {
			break
		}
	}
	fmt.Printf("%s: %v\n  %s\n", what, r, strings.Join(names, "\n  "))
}

//go:noinline
func faultCopy(dst []byte) int {
	defer stack("memmove")
	return copy(dst, unmapped(len(dst)))
}

//go:noinline
func faultEqual(a []byte) bool {
	defer stack("memequal")
	return bytes.Equal(a, unmapped(len(a)))
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "fault" {
		debug.SetPanicOnFault(true)
		faultCopy(make([]byte, size))
		faultEqual(make([]byte, size))
		return
	}
	n, err := strconv.Atoi(os.Args[len(os.Args)-1])
	if len(os.Args) != 3 || err != nil {
		fmt.Println("usage: rtasm copy|equal|index|sha256|crc32|bigadd ROUNDS, or rtasm fault")
		os.Exit(2)
	}
	count(os.Args[1], n)
}
