#!/bin/sh
# go build -toolexec wrapper for tests/programs/t_realprogs.sh: runs compile, link and
# asm from $GR_TOOLDIR (the originals, or their instrumented copies) and
# every other tool as the go command asked.
tool=$1
shift
name=$(basename "$tool")
case $name in
    compile | link | asm) exec "$GR_TOOLDIR/$name" "$@" ;;
esac
exec "$tool" "$@"
