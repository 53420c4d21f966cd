#!/bin/sh
# esbuild: bundle and minify the TypeScript project, with a source map. $1 = esbuild.
set -e
$1 src/index.ts --bundle --minify --sourcemap --log-level=warning --outfile=out/bundle.js
$1 src/matrix.ts --format=cjs --target=es2015 --log-level=warning --outfile=out/matrix.cjs
