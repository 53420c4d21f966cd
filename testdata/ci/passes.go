//go:build !regression

package cihot

// passes is how often Normalize normalizes each word: once.
const passes = 1
