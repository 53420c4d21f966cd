//go:build !go1.18
// +build !go1.18

// Go 1.15 has no generics: see generics.go.
package main

func generics() {}
