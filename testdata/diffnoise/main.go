// Command diffnoise does the same work on every run, through many
// functions of the standard library and its own, with goroutines, garbage
// collections and allocations whose timing varies from run to run: the
// program of gostat diff's identical-runs test (tests/gostat/t_gostat_diff.sh).
// With DIFFNOISE_SLOW=1, checksum does its work twice as often: one function
// made 2x slower, which the diff must catch; DIFFNOISE_PASSES sets how much
// work that is. Standard output is deterministic.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
)

var slow = os.Getenv("DIFFNOISE_SLOW") == "1"

// checksum's passes over its input: DIFFNOISE_PASSES (1 to 16), 3 else.
var passes = func() int {
	n, err := strconv.Atoi(os.Getenv("DIFFNOISE_PASSES"))
	if err != nil || n < 1 || n > 16 {
		return 3
	}
	return n
}()

var never bool

func rare() { fmt.Fprintln(os.Stderr, "never") }

type record struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Tags  []string `json:"tags"`
	Score float64  `json:"score"`
}

//go:noinline
func checksum(b []byte) uint64 {
	if never { // a stack check, so that checksum is timed
		rare()
	}
	n := passes // some 100 ns a pass, well above a probe's cost
	if slow {
		n *= 2
	}
	var h uint64
	for p := 0; p < n; p++ {
		h = 14695981039346656037
		for _, c := range b {
			h ^= uint64(c)
			h *= 1099511628211
			h ^= h >> 29
		}
	}
	return h
}

//go:noinline
func makeRecord(i int) record {
	return record{
		ID:    i,
		Name:  "item-" + strconv.Itoa(i*7919%10007),
		Tags:  strings.Fields(fmt.Sprintf("t%d u%d v%d", i%13, i%17, i%19)),
		Score: float64(i%1000) / 7,
	}
}

//go:noinline
func encode(r record) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	return b
}

//go:noinline
func decode(b []byte) record {
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		panic(err)
	}
	return r
}

//go:noinline
func tally(words map[string]int, r record) {
	for _, t := range r.Tags {
		words[strings.ToUpper(t)]++
	}
}

// batch encodes, checks and decodes n records: checksum is about a tenth
// of its time, so doubling checksum moves batch well under 1.5x.
//
//go:noinline
func batch(start, n int) (uint64, map[string]int) {
	words := map[string]int{}
	var sum uint64
	var buf bytes.Buffer
	for i := start; i < start+n; i++ {
		b := encode(makeRecord(i))
		buf.Reset()
		buf.Write(b)
		sum += checksum(buf.Bytes())
		tally(words, decode(b))
	}
	return sum, words
}

//go:noinline
func digest(words map[string]int) string {
	keys := make([]string, 0, len(words))
	for k := range words {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%d;", k, words[k])
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

func main() {
	const workers, per = 4, 20000
	sums := make([]uint64, workers)
	maps := make([]map[string]int, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sums[w], maps[w] = batch(w*per, per)
		}(w)
	}
	wg.Wait()
	all := map[string]int{}
	var sum uint64
	for w := 0; w < workers; w++ {
		sum += sums[w]
		for k, v := range maps[w] {
			all[k] += v
		}
	}
	fmt.Println(len(all), digest(all), sum%1000003)
}
