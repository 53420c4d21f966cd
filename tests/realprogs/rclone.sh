#!/bin/sh
# rclone, offline: local copy, checksums, listing, sizes. $1 = rclone.
set -e
R="$1 --config /dev/null --log-level ERROR"
$R copy data out
$R md5sum out | LC_ALL=C sort
$R sha1sum data | LC_ALL=C sort
$R lsf -R --format pst out | LC_ALL=C sort | cut -d';' -f1,2
$R size data
$R check data out 2>/dev/null && echo check ok
$R dedupe --dedupe-mode first --dry-run out 2>/dev/null || true
$R delete --include '*.log' out
$R lsf -R out | LC_ALL=C sort
