package cihot

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	words := []string{" Go", "Rust ", "C", " Zig ", "ODIN", "nim", "Ada", " D", "Hare", "V"}
	for i := 0; i < 100; i++ {
		got := Normalize(words)
		if got[0] != "go" || got[4] != "odin" || len(got) != len(words) {
			t.Fatalf("Normalize(%q) = %q", words, got)
		}
	}
}

func TestCountWords(t *testing.T) {
	text := strings.Repeat("the quick Brown fox THE lazy dog ", 5)
	counts := CountWords(text)
	if counts["the"] != 10 || counts["brown"] != 5 || len(counts) != 6 {
		t.Fatalf("CountWords = %v", counts)
	}
}
