#!/bin/sh
# tsgo (TypeScript 7 native preview): type-check and compile the project. $1 = tsgo.
set -e
$1 -p tsconfig.json
$1 -p tsconfig.json --noEmit --listFilesOnly | sed 's|.*/lib/|lib/|; s|.*/src/|src/|' | LC_ALL=C sort
