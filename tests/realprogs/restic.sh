#!/bin/sh
# restic, offline: a repository in the working directory, a backup, a
# restore, a check; the repository itself (random keys and IDs) is removed
# before the trees are compared. $1 = restic.
set -e
export RESTIC_PASSWORD=gorewrite RESTIC_REPOSITORY="$PWD/repo" RESTIC_CACHE_DIR="$PWD/cache"
$1 init -q >/dev/null
$1 backup -q --host test data
$1 restore latest -q --target restored
diff -r data restored/*/data 2>/dev/null || diff -r data restored/data
$1 ls latest -q | tail -n +1 | LC_ALL=C sort
$1 check -q
$1 stats -q --mode raw-data latest | grep -c . >/dev/null
rm -rf repo cache restored
echo done
