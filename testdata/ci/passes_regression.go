//go:build regression

package cihot

// passes with -tags regression: a hot path called ten times as often, the
// regression docs/ci.md's CI step exists to catch.
const passes = 10
