#!/bin/sh
# esbuild_transform: minify each TypeScript file of the project read from
# stdin, one process per file. Nothing is read from the file system, so the
# work (and every call count in esbuild's own code) is the same in any
# directory. One P (GOMAXPROCS=1) makes the goroutines run in one order:
# esbuild starts a hashing goroutine it never waits for in transform mode,
# which with two Ps sometimes finishes before exit and sometimes not.
# $1 = esbuild.
set -e
mkdir -p out
for f in src/*.ts; do
    GOMAXPROCS=1 $1 --loader=ts --minify --format=cjs --target=es2015 --log-level=warning <"$f" >"out/$(basename "$f" .ts).js"
done
