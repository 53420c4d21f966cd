// asmcalls: assembly functions without a stack check, called a known
// number of times: with argument N, each of N rounds calls
// bytes.IndexByte (internal/bytealg.IndexByte), strings.IndexByte
// (internal/bytealg.IndexByteString), big.Int.Add on two 4-word numbers
// (math/big.addVV once), sha256.Sum256 of 64 bytes (two blocks) and
// syscall.RawSyscall(SYS_GETUID) (assembly in Go <= 1.18). tests/rewriter/t_asm.sh
// compares the counts of two runs.
package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	buf := append(bytes.Repeat([]byte("abcdefgh"), 16), 'z')
	s := string(buf)
	x := new(big.Int).Lsh(big.NewInt(1), 200)
	y := new(big.Int).Lsh(big.NewInt(3), 190)
	z := new(big.Int)
	total, uid := 0, uintptr(0)
	for i := 0; i < n; i++ {
		total += bytes.IndexByte(buf, 'z')
		total += strings.IndexByte(s, 'z')
		sum := sha256.Sum256(buf[:64])
		total += int(sum[0])
		z.Add(x, y)
		uid, _, _ = syscall.RawSyscall(syscall.SYS_GETUID, 0, 0, 0)
	}
	fmt.Println("rounds", n, "total", total, "bits", z.BitLen(), "uid", uid == uintptr(os.Getuid()))
}
