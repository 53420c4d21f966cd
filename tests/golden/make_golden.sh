#!/usr/bin/env bash
# tests/golden/make_golden.sh OUTDIR: writes every golden output of gostat
# into OUTDIR, one file NAME.txt per command: the command line ("$ gostat
# ..."), its stdout byte for byte, then its stderr and exit status when it
# has any. `make golden` writes them into tests/golden (the committed
# expected files); tests/gostat/t_golden.sh writes them into a temporary
# directory and compares. The stats files are made by mkstats with fixed
# values (processes that exited, start times, clocks, names), given by
# relative names from a work directory, with a fixed terminal width and
# time zone: nothing in the outputs varies from run to run or machine to
# machine. The one live process (the metrics) is this script itself, whose
# pid the exported labels leave out (replica, not pid).
set -u
. "$(dirname "$0")/../lib.sh"
MKSTATS=${MKSTATS:-$ROOT/build/tests/mkstats}
GO_PPROF=${GO_PPROF:-1.22}

[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 1; }
mkdir -p "$1" && OUT=$(cd "$1" && pwd) || exit 1
for t in "$GOSTAT" "$MKSTATS" "$(go_bin "$GO_PPROF")"; do
    [ -x "$t" ] || { echo "$0: $t missing (make all tools; Go $GO_PPROF for go tool pprof)" >&2; exit 1; }
done
work_dir
cd "$WORK" || exit 1
mkdir -p live
export GOSTAT_DIR=$WORK/live COLUMNS=120 TZ=UTC LC_ALL=C
status=0

# golden NAME CMD ARGS...: CMD's outputs into $OUT/NAME.txt, headed by
# the command line ("gostat" for bin/gostat; $SHOWN instead when set).
golden() {
    local name=$1
    shift
    local shown=("$@")
    [ "$1" = "$GOSTAT" ] && shown[0]=gostat
    [ -n "${SHOWN:-}" ] && shown=("$SHOWN")
    [ "$COLUMNS" = 120 ] || shown=("COLUMNS=$COLUMNS" "${shown[@]}")
    {
        echo "\$ ${shown[*]}"
        "$@" 2>"$WORK/stderr"
        local rc=$?
        if [ -s "$WORK/stderr" ]; then
            echo "--- stderr"
            cat "$WORK/stderr"
        fi
        [ $rc -eq 0 ] || echo "--- exit status $rc"
    } >"$OUT/$name.txt"
}

gs() { golden "$1" "$GOSTAT" "${@:2}"; }

mk() { "$MKSTATS" "$@" || { echo "$0: mkstats $1 failed" >&2; status=1; }; }

# pprof_raw FILE: go tool pprof's text (-raw) of gostat's profile of FILE
# (its clock in UTC); pprof_golden NAME FILE: that as golden NAME.
pprof_raw() {
    "$GOSTAT" pprof -o "$1.pb.gz" "$1" >/dev/null &&
        go_env "$GO_PPROF" "$(go_bin "$GO_PPROF")" tool pprof -raw -symbolize=none "$1.pb.gz"
}
pprof_golden() {
    SHOWN="gostat pprof -o $2.pb.gz $2 && go tool pprof -raw -symbolize=none $2.pb.gz" golden "$1" pprof_raw "$2"
}

# Exited processes: pid 4242 started at tick 1, which no running process
# can have started at; clock 0.5 ns per tick.
EXITED=(--pid 4242 --start-ticks 1 --start-ns 1700000000000000000)
CLOCK=(--tsc 1000:0:2001000:1000000)

# count: counting only, counts spread over 4 rows; an inlined function,
# one never called, one without a file, goroutine counters, packages for
# coverage.
mk count.stats "${EXITED[@]}" --exe /opt/count --go-version go1.22.12 --build-id go:count/1 \
    --rows 4 --spread \
    --func 'example.com/app/db.(*Conn).Query:0x401000:120:/src/db/conn.go:40' \
    --func example.com/app/db.Open:0x401100:1:/src/db/conn.go:12 \
    --func example.com/app/db.unused:0x401200:0:/src/db/conn.go:90 \
    --func main.main:0x402000:1:/src/main.go:8 \
    --func main.handle:0x402100:832040:/src/main.go:20 \
    --func 'main.(*T).Get:0x402200:7:/src/t.go:5:inlined' \
    --func main.never:0x402300:0:/src/main.go:60 \
    --func runtime.goexit1:0x403000:9 --func runtime.newproc1:0x403100:12 \
    --func gopkg.in/yaml.v3.Unmarshal:0x404000:3:/src/yaml/decode.go:70
gs count.table count.stats
gs count.table-name --sort name --nonzero count.stats
COLUMNS=40 gs count.table-narrow-40 --top 3 count.stats
gs count.json --json count.stats
gs count.coverage coverage count.stats
gs count.coverage-json coverage --json count.stats
gs count.callgrind callgrind -o - count.stats
pprof_golden count.pprof count.stats

# timed: every call timed (time-all), histograms, an untimed function,
# drops, on-CPU time, the probe's calibration.
mk timed.stats "${EXITED[@]}" --exe /opt/timed --go-version go1.22.12 "${CLOCK[@]}" --rows 3 --spread \
    --timing --probe 40:24:2304 \
    --func main.main:0x401000:1:/src/main.go:5 \
    --func main.work:0x401100:10:/src/work.go:3 \
    --func main.slow:0x401200:2:/src/work.go:30 \
    --func main.tiny:0x401300:5:/src/work.go:50 \
    --func main.idle:0x401400:0:/src/work.go:60 \
    --untimed '3:too short to patch' \
    --time 0:1:8000000:8000000:8000000:22=1 \
    --time 1:1:5300:100:5000:2=3,8=1 --time 1:2:900:130:200:3=6 \
    --time 2:1:4000000:1000000:3000000:15=1,17=1 \
    --oncpu 0:1:7000000 --oncpu 1:1:5000 --oncpu 1:2:800 --oncpu 2:1:1000000 \
    --drops 1:2:7:0:6:0:5
gs timed.table timed.stats
gs timed.table-time --sort time timed.stats
gs timed.table-oncpu --sort oncpu timed.stats
gs timed.table-self --sort self timed.stats
gs timed.json --json timed.stats
gs timed.callgrind callgrind -o - timed.stats
pprof_golden timed.pprof timed.stats

# sampled: 1 call in 8 timed; every record's next call to time set.
mk sampled.stats "${EXITED[@]}" --exe /opt/sampled "${CLOCK[@]}" --rows 2 --spread --timing --sample-every 8 \
    --func b.f:0x401000:80:/src/b.go:3 --func b.g:0x401100:16:/src/b.go:9 \
    --time 0:1:8000:1000:1020:5=8 --time 1:1:8000:4000:4000:7=2 --next 1:3
gs sampled.table sampled.stats
gs sampled.json --json sampled.stats

# graph: a call graph (--call-graph): main.parse reached three ways, one
# through an untimed helper; main.handle's context also in a second row.
# graph_file OUT N: with N calls of main.parse from main.handle, 500 ns each.
graph_file() {
    local e=$((($2 - 4) * 1000))
    mk "$1" "${EXITED[@]}" --exe /opt/graph "${CLOCK[@]}" --rows 3 --timing \
        --func main.main:0x401000:1:/src/main.go:5 --func main.handle:0x401100:5:/src/main.go:10 \
        --func main.parse:0x401200:$(($2 + 2)):/src/parse.go:3 --func main.query:0x401300:2:/src/db.go:8 \
        --func main.helper:0x401400:1:/src/db.go:30 --untimed 4:leaf \
        --path 1:1:0:0:-:1:$((30000 + e)):9000:20000 --path 1:2:1:1:0:4:$((16000 + e)):4000:10000 \
        --path 1:3:2:2:1:"$2":$((4000 + e)):$((4000 + e)):4000 --path 1:4:2:3:1:2:8000:6000:4000 \
        --path 1:5:4:2:4:1:2000:2000:2000 --path 1:6:1:2:0:1:1000:1000:1000 \
        --path 2:2:1:1:0:1:4000:4000:4000 \
        --time 0:1:0:30000:30000:10=1 --time 1:1:0:2000:8000:6=2,7=3 \
        --time 2:1:0:500:2000:4=4,5=2 --time 3:1:0:4000:4000:7=2
}
graph_file graph.stats 4
graph_file graph-new.stats 40
gs graph.table graph.stats
gs graph.table-cum --sort cum graph.stats
gs graph.callers --callers main.parse graph.stats
gs graph.callees --callers main.handle --callees main.handle graph.stats
gs graph.json --json graph.stats
gs graph.folded folded graph.stats
gs graph.folded-calls folded --value calls graph.stats
gs graph.folded-oncpu folded --value oncpu graph.stats
gs graph.callgrind callgrind -o - graph.stats
pprof_golden graph.pprof graph.stats
gs graph.diff diff graph.stats graph-new.stats
gs graph.diff-json diff --json graph.stats graph-new.stats

# trace: traced calls in two threads' rings (row 2's holds 4 slots, 6
# events written: 2 lost), typed arguments and results, a string cut at
# its copy, a panicked call, a function without a descriptor (raw words).
TRACE=("${EXITED[@]}" --exe /opt/trace "${CLOCK[@]}" --rows 3 --timing --trace-slots 4 \
    --func main.main:0x401000:1:/src/main.go:5 --func main.add:0x401100:7:/src/main.go:10 \
    --func main.greet:0x401200:3:/src/main.go:15 --func main.raw:0x401300:1:/src/raw.go:3 \
    --trace-func 1:a=int,b=int:r=int --trace-func 2:name=string,loud=bool:s=string,ok=bool \
    --trace-func 3:p=ptr,n=uint:r=uint:nodesc --trace-event 1:2:1:6001000:50:0:0xc000123000,255,17 \
    --trace-event 1:0:1:2001000:200:0:2,3,5 \
    --trace-event 1:1:1:2201000:4000:0:gopher,true,HELLO_GOPHER_AND_FRIENDS,true \
    --trace-event 1:1:1:4001000:600000:0:,false,,false \
    --trace-event 2:0:7:3001000:100:0:-1,-2,-3 --trace-event 2:0:7:3002000:100:0:10,20,30 \
    --trace-event 2:0:7:3003000:100:0:4,4,8 --trace-event 2:0:7:3004000:100:1:1,1,2 \
    --trace-event 2:0:8:5001000:3000000:0:100,200,300 \
    --trace-event 2:1:8:9001000:100:1:x,false:panicked)
mk trace.stats "${TRACE[@]}"
# a merged file keeps the first process's rings only: gostat trace says so
mk trace-merged.stats --processes 3 "${TRACE[@]}"
gs trace.lines trace trace.stats
gs trace.lines-filtered trace --func greet --goroutine 1 trace.stats
gs trace.merged trace trace-merged.stats
gs trace.json trace --json trace.stats
gs trace.chrome trace --chrome - trace.stats

# sites: goroutines by creation site, lifetimes of those that ended.
mk sites.stats "${EXITED[@]}" --exe /opt/sites "${CLOCK[@]}" --rows 2 --timing \
    --func main.main:0x401000:1:/src/main.go:5 --func main.worker:0x401100:5:/src/main.go:10 \
    --func main.serve:0x401200:1:/src/main.go:20 \
    --func runtime.goexit1:0x402000:4 --func runtime.newproc1:0x402100:7 \
    --untimed 3:runtime --untimed 4:runtime \
    --gostmt 0x401010:main.main:/src/main.go:7 --gostmt 0x401210:main.serve:/src/main.go:22 \
    --site 0x401010:0x401100:5:1:6000000:2000000:16=2,17=1 \
    --site 0x401210:0x401100:1:0:0:0 --site 0x401220:0x401200:1:0:0:0 --site-head 0:1:2
gs sites.table sites.stats
gs sites.goroutines goroutines sites.stats
gs sites.goroutines-json goroutines --json sites.stats

# sitepaths: a call graph whose sites are told apart by the creator's
# call path: one go statement in main.serve reached from main.main
# directly and through main.handle, another in an untimed function.
mk sitepaths.stats "${EXITED[@]}" --exe /opt/sitepaths "${CLOCK[@]}" --rows 2 --timing \
    --func main.main:0x401000:1:/src/main.go:5 --func main.handle:0x401100:3:/src/main.go:10 \
    --func main.serve:0x401200:4:/src/main.go:20 --func main.spawn:0x401300:1:/src/main.go:30 \
    --func main.worker:0x401400:9:/src/main.go:40 --untimed 3:leaf \
    --path 1:1:0:0:-:1:90000:10000 --path 1:2:1:1:0:3:60000:30000 \
    --path 1:3:2:2:1:3:30000:30000 --path 1:4:1:2:0:1:20000:20000 \
    --gostmt 0x401210:main.serve:/src/main.go:22 --gostmt 0x401310:main.spawn:/src/main.go:31 \
    --site 0x401210:0x401400:6:0:60000:20000:9=6 --site 0x401210:0x401400:2:0:20000:10000:8=2 \
    --site 0x401310:0x401400:1:0:0:0 \
    --site-path 0:3:2,1,0 --site-path 1:4:2,0 --site-path 2:1:0
gs sitepaths.goroutines goroutines sitepaths.stats
gs sitepaths.goroutines-json goroutines --json sitepaths.stats

# diff: a base and a new run of one program: main.parse called 3 times
# as often, main.query 4 times slower per call, main.gone no longer
# called, main.added new, main.parse's goroutines left live 1 -> 50.
diff_file() {
    local out=$1 parse=$2 query_b=$3 gone=$4 added=$5 exited=$6
    mk "$out" "${EXITED[@]}" --exe /opt/app --build-id go:app/1 "${CLOCK[@]}" --rows 2 --claimed 1 --timing \
        --func main.main:0x401000:1:/src/main.go:3 --func main.parse:0x401100:"$parse":/src/parse.go:9 \
        --func main.query:0x401200:2000:/src/db.go:20 --func main.gone:0x401300:"$gone":/src/old.go:4 \
        --func main.added:0x401400:"$added":/src/new.go:4 --func main.steady:0x401500:5000:/src/main.go:30 \
        --time 1:1:$((parse * 600)):500:700:4=$((parse / 2)),5=$((parse / 2)) \
        --time 2:1:$((2000 * 4 * 2 ** query_b)):$((4 * 2 ** query_b)):$((4 * 2 ** query_b)):$((query_b - 2))=2000 \
        --time 5:1:$((5000 * 3000)):2000:4000:7=5000 \
        --gostmt 0x401110:main.parse:/src/parse.go:12 --site 0x401110:0x401200:100:"$exited":0:0
}
diff_file base.stats 10000 11 50 0 99
diff_file new.stats 30000 13 0 40 50
gs diff.table diff base.stats new.stats
gs diff.json diff --json base.stats new.stats
gs diff.fail diff --fail-on-regression --metric calls base.stats new.stats
gs merge.json merge base.stats new.stats

# metrics: the one live process (this script), with every kind of series:
# timing, drops, on-CPU time, goroutine counts and sites.
ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
mk "live/gostat.app.$$" --pid $$ --start-ticks "$ticks" --start-ns 1700000000500000000 \
    --exe /opt/app --go-version go1.22.12 --build-id go:app/1 "${CLOCK[@]}" --rows 3 --spread --timing \
    --func main.work:0x401000:10:/src/w.go:3 --func main.slow:0x401100:2:/src/w.go:9 \
    --func main.inl:0x401200:5 --func runtime.goexit1:0x402000:4 --func runtime.newproc1:0x402100:7 \
    --untimed '2:too short to patch' --untimed 3:runtime --untimed 4:runtime \
    --time 0:1:5300:100:5000:2=3,8=1 --time 0:2:900:130:200:3=6 \
    --time 1:1:4000000:1000000:3000000:15=1,17=1 --oncpu 0:1:5000 --oncpu 1:1:1000000 \
    --drops 1:2:7:0:6:0:5 \
    --gostmt 0x401010:main.work:/src/w.go:5 --site 0x401010:0x401100:7:0:6000000:2000000:16=2,17=2
gs metrics.openmetrics serve --once --openmetrics
gs metrics.prometheus serve --once --top 1 --no-histograms

exit $status
