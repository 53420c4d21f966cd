// Package cihot is the program of docs/ci.md's worked example: a word
// counter whose hot path, normalizeWord, CI watches with gostat diff.
// Built with -tags regression (passes_regression.go) the hot path runs ten
// times as often, which the example's CI step must catch.
package cihot

import (
	"strings"
	"unicode/utf8"
)

// Normalize returns the words lowercased and trimmed.
func Normalize(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		var n string
		for i := 0; i < passes; i++ {
			n = normalizeWord(w)
		}
		out = append(out, n)
	}
	return out
}

//go:noinline
func normalizeWord(w string) string {
	if !utf8.ValidString(w) {
		return replaceInvalid(w)
	}
	return strings.ToLower(strings.TrimSpace(w))
}

// replaceInvalid is never called by the tests: gostat coverage lists it.
//
//go:noinline
func replaceInvalid(w string) string {
	return strings.ToValidUTF8(w, "?")
}

// CountWords counts the normalized words of text.
func CountWords(text string) map[string]int {
	counts := make(map[string]int)
	for _, w := range Normalize(strings.Fields(text)) {
		counts[w]++
	}
	return counts
}
