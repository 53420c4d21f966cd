/* exported by gostat/profile */
/* gopkg.h: the Go package a function belongs to, from its symbol name,
 * by the rule of Go's debug/gosym (Sym.PackageName): drop type arguments
 * (from the first '[' to the last ']', as they may hold any path), then
 * the package is everything up to the first '.' after the last '/'. So
 * "example.com/a/b.(*T).M", "example.com/a/b.F.func1" and
 * "example.com/a/b.G[go.shape.int]" all belong to "example.com/a/b" (a '.'
 * in a path's last element is written %2e in symbols). Compiler-generated
 * functions ("type:.eq.T", "go:...", and before Go 1.20 "type..eq.T"),
 * methods of anonymous structs (what the rule gives holds a space, brace,
 * parenthesis, ';' or '*', which no import path does) and names without
 * a '.' belong to no package: "". */
#ifndef GOSTAT_GOPKG_H
#define GOSTAT_GOPKG_H

/* The package of function name, as a new string ("" for none), or NULL
 * when out of memory. */
char *gst_go_package(const char *name);

#endif
