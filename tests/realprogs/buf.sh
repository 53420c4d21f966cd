#!/bin/sh
# buf, offline: format, lint (with findings: exit 100), build an image. $1 = buf.
export HOME="$PWD/home" BUF_CACHE_DIR="$PWD/bufcache"
cd proto || exit 1
$1 format
$1 lint
echo "lint exit $?"
$1 build -o ../out/image.binpb
echo "build exit $?"
$1 ls-files | LC_ALL=C sort
cd .. && rm -rf home bufcache
