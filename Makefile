# gorewrite: build, test and demo. `make` builds bin/gorewrite and bin/gostat.
# `make check` and `make demo` first install what they need (scripts/deps.sh).

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP
SANITIZE ?=
ifneq ($(SANITIZE),)
CFLAGS  += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

BUILD   := build
PROTO_GEN := $(BUILD)/gen

# Each program is built from its own folders (docs/architecture.md):
# common/ and format/ are shared by all three; elf/ and rewriter/ are
# gorewrite's; gostat/ is layered read < model < render < profile, top, serve < cmd.
# Includes name their header from the repository root ("rewriter/plan/plan.h"),
# so the one -I is the root; tests/project/t_layers.sh checks which folder may
# include which.
REWRITER_DIRS := common elf rewriter rewriter/find rewriter/plan rewriter/gen
GOSTAT_DIRS   := common gostat gostat/read gostat/model gostat/render gostat/profile \
	gostat/top gostat/serve gostat/cmd
REWRITER_INC  := -I.
GOSTAT_INC    := -I. -I$(PROTO_GEN)

REWRITER_SRC := $(foreach d,$(REWRITER_DIRS),$(wildcard $(d)/*.c))
GOSTAT_SRC   := $(foreach d,$(GOSTAT_DIRS),$(wildcard $(d)/*.c))
STUB_SRC     := $(wildcard stubs/*.c) $(wildcard stubs/*.S)
TOOL_SRC     := $(wildcard tests/tools/*.c)

REWRITER_OBJ := $(REWRITER_SRC:%.c=$(BUILD)/%.o) $(BUILD)/rewriter/stub_blob.o
GOSTAT_OBJ   := $(GOSTAT_SRC:%.c=$(BUILD)/%.o) $(PROTO_GEN)/profile.pb-c.o
# An error value's message passes the terminal filter (common/safe_text.c).
ERROR_OBJ    := $(BUILD)/common/error.o $(BUILD)/common/safe_text.o
MANGEN       := $(BUILD)/mangen
TOOLS        := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tests/%) $(BUILD)/tests/dwarfdump_funcs \
	$(BUILD)/tests/trace_layout_dump $(BUILD)/tests/trace_values_render

LIBS_REWRITER := -lZydis -lZycore -ldwarf -lelf -lz -lm
# gostat's commands each add the library they read or write through:
# merge/diff read JSON with jansson; pprof encodes profile.proto (compiled
# by protoc-c into $(PROTO_GEN) at build time) with libprotobuf-c; pprof
# and serve gzip with zlib; serve is an HTTP server on libmicrohttpd; top
# draws with wide-character curses (UTF-8 names).
LIBS_GOSTAT   := -ljansson -lprotobuf-c -lz -lmicrohttpd -lncursesw -lm

.PHONY: man all tools golden deps check unit unit-build demo clean clean-objs bench bench-macro bench-memory asan fuzz fuzz-build fuzz-corpus install uninstall
all: bin/gorewrite bin/gostat

# What the tests run besides the two programs (LIEF is needed only here).
tools: $(TOOLS) $(MANGEN)/gostat_man $(MANGEN)/gorewrite_man

deps:
	@bash scripts/deps.sh

bin/gorewrite: $(REWRITER_OBJ)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_REWRITER)

# gorewrite linked inside $(BUILD): `make BUILD=build/plain SANITIZE=
# build/plain/gorewrite` gives tests/rewriter/t_valgrind.sh an unsanitized binary
# under `make asan` (valgrind cannot run ASan builds).
$(BUILD)/gorewrite: $(REWRITER_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_REWRITER)

bin/gostat: $(GOSTAT_OBJ)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_GOSTAT)

# The manual pages' options lists come from the programs' option tables
# (common/opttable.h): `make man` rewrites them in docs/man, tests/project/t_man.sh
# checks they are up to date. Each generator is linked with its program's
# objects but main.
$(MANGEN)/gostat_man: $(BUILD)/mangen/gostat_man.o $(filter-out $(BUILD)/gostat/main.o,$(GOSTAT_OBJ))
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_GOSTAT)
$(BUILD)/mangen/gostat_man.o: INC = $(GOSTAT_INC)
$(MANGEN)/gorewrite_man: $(BUILD)/mangen/gorewrite_man.o $(filter-out $(BUILD)/rewriter/main.o,$(REWRITER_OBJ))
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_REWRITER)
$(BUILD)/mangen/gorewrite_man.o: INC = $(REWRITER_INC)

# gostat's expected outputs (tests/golden/*.txt, checked by t_golden),
# written again from the current bin/gostat: review the diff, commit it.
golden: bin/gostat $(BUILD)/tests/mkstats
	rm -f tests/golden/*.txt
	bash tests/golden/make_golden.sh tests/golden

man: $(MANGEN)/gostat_man $(MANGEN)/gorewrite_man
	for p in gostat gorewrite; do \
		$(MANGEN)/$${p}_man <docs/man/$$p.1 >docs/man/$$p.1.new && mv docs/man/$$p.1.new docs/man/$$p.1 || exit 1; \
	done

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -c -o $@ $<

# Pattern-specific include lists: a file cannot include what its program
# is not built from.
$(BUILD)/common/%.o $(BUILD)/elf/%.o $(BUILD)/rewriter/%.o: INC = $(REWRITER_INC)
$(BUILD)/gostat/%.o: INC = $(GOSTAT_INC)

$(BUILD)/tests/%: tests/tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I. $(LDFLAGS) -o $@ $< $(TOOL_LIBS)

# The tests' independent reader of gorewrite's outputs: LIEF 0.9's C API
# (liblief-dev), whose library is C++.
$(BUILD)/tests/lief_check: TOOL_LIBS = -lLIEF -lstdc++ -lm

# tests/rewriter/t_dwarf_info.sh's driver: rewriter/find/dwarf_info.c alone, built
# like gorewrite (with SANITIZE under `make asan`).
DWARFDUMP_OBJ := $(BUILD)/tests/dwarf/dwarfdump_funcs.o $(BUILD)/rewriter/find/dwarf_info.o \
	$(BUILD)/rewriter/find/dwarf_lines.o $(BUILD)/rewriter/find/dwarf_offsets.o $(BUILD)/rewriter/find/runtime_offsets.o \
	$(ERROR_OBJ) $(BUILD)/common/vec.o
$(BUILD)/tests/dwarf/%.o: INC = $(REWRITER_INC)
$(BUILD)/tests/dwarfdump_funcs: $(DWARFDUMP_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -ldwarf -lelf -lz

# tests/rewriter/t_trace_layout.sh's driver: gorewrite's find stage and
# gostat's descriptor reader.
$(BUILD)/tests/trace/%.o: INC = -I.
$(BUILD)/tests/trace_layout_dump: $(BUILD)/tests/trace/trace_layout_dump.o \
	$(filter-out $(BUILD)/rewriter/main.o,$(REWRITER_OBJ)) $(BUILD)/gostat/read/trace_desc_check.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_REWRITER)
$(BUILD)/tests/trace_values_render: $(BUILD)/tests/trace/trace_values_render.o \
	$(filter-out $(BUILD)/rewriter/main.o,$(REWRITER_OBJ)) $(BUILD)/gostat/read/trace_desc_check.o \
	$(BUILD)/gostat/render/trace_values.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_REWRITER)

# C unit tests (tests/unit/README.md): one program per module under test,
# linked from that module's objects, common/ and what the module needs,
# each compiled with its program's -I list.
UNIT       := $(BUILD)/tests/unit
UNIT_PROGS := $(addprefix $(UNIT)/test_,prologue leaf asm_callers asm_funcs returns call_sites pclntab go_version dwarf_lines \
	statsfile_check hist times clock view vec regex_compile callgraph cg_outputs opttable select trace_values \
	trace_layout trace_read expo_top offsets_sigcode statsfile_pass insn_quick safe_text merge_rule sched_hooks timing_mode)
UNIT_OBJ   := $(UNIT_PROGS:=.o) $(UNIT)/unit.o $(UNIT)/returns_fixtures.o $(UNIT)/fake_elf.o

$(UNIT)/test_prologue: $(BUILD)/rewriter/plan/prologue.o
$(UNIT)/test_leaf: $(BUILD)/rewriter/plan/leaf.o $(BUILD)/rewriter/plan/asm_funcs.o
$(UNIT)/test_asm_callers: $(BUILD)/rewriter/plan/asm_callers.o $(UNIT)/fake_elf.o $(BUILD)/elf/elf_read.o \
	$(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_asm_funcs: $(BUILD)/rewriter/plan/asm_funcs.o
$(UNIT)/test_returns: $(UNIT)/returns_fixtures.o $(BUILD)/rewriter/plan/returns.o $(BUILD)/rewriter/plan/leaf.o \
	$(BUILD)/rewriter/plan/asm_funcs.o $(BUILD)/rewriter/find/insn_quick.o \
	$(BUILD)/elf/elf_read.o $(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_call_sites: $(BUILD)/rewriter/plan/call_sites.o $(BUILD)/rewriter/find/insn_quick.o $(BUILD)/elf/elf_read.o \
	$(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_sched_hooks: $(BUILD)/rewriter/plan/sched_hooks.o $(BUILD)/rewriter/find/insn_quick.o \
	$(BUILD)/elf/elf_read.o $(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_pclntab: $(BUILD)/rewriter/find/pclntab.o $(BUILD)/rewriter/find/go_version.o $(BUILD)/rewriter/find/runtime_offsets.o $(UNIT)/fake_elf.o $(BUILD)/elf/elf_read.o \
	$(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_go_version: $(BUILD)/rewriter/find/go_version.o $(UNIT)/fake_elf.o $(BUILD)/elf/elf_read.o \
	$(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_dwarf_lines: $(BUILD)/rewriter/find/dwarf_lines.o
$(UNIT)/test_offsets_sigcode: $(UNIT)/fake_elf.o $(filter-out $(BUILD)/rewriter/main.o,$(REWRITER_OBJ))
$(UNIT)/test_offsets_sigcode: UNIT_LIBS := $(LIBS_REWRITER)
$(UNIT)/test_statsfile_check: $(BUILD)/gostat/read/statsfile_check.o $(ERROR_OBJ)
$(UNIT)/test_statsfile_pass: $(BUILD)/gostat/read/statsfile.o $(BUILD)/gostat/read/sigbus_guard.o $(BUILD)/gostat/read/statsfile_check.o \
	$(BUILD)/gostat/read/clock.o $(BUILD)/gostat/read/proc.o $(BUILD)/gostat/read/syms.o $(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_statsfile_pass: UNIT_LIBS := -lm
$(UNIT)/test_hist: $(BUILD)/gostat/model/hist.o
$(UNIT)/test_times: $(BUILD)/gostat/model/times.o $(BUILD)/gostat/model/hist.o
$(UNIT)/test_clock: $(BUILD)/gostat/read/clock.o
$(UNIT)/test_view: $(BUILD)/gostat/model/view.o $(BUILD)/gostat/model/cgsums.o $(BUILD)/common/regex_compile.o $(ERROR_OBJ)
$(UNIT)/test_view: UNIT_LIBS := -lm
$(UNIT)/test_vec: $(BUILD)/common/vec.o
$(UNIT)/test_safe_text: $(BUILD)/common/safe_text.o
$(UNIT)/test_expo_top: $(BUILD)/gostat/render/expo_top.o $(BUILD)/common/vec.o
$(UNIT)/test_callgraph: $(BUILD)/gostat/model/callgraph.o $(BUILD)/gostat/model/cgsums.o $(BUILD)/gostat/read/syms.o \
	$(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_cg_outputs: $(BUILD)/gostat/model/cgpath.o $(BUILD)/gostat/model/callgraph.o $(BUILD)/gostat/model/cgsums.o \
	$(BUILD)/gostat/model/times.o $(BUILD)/gostat/model/hist.o $(BUILD)/gostat/render/folded.o \
	$(BUILD)/gostat/render/arcs.o $(BUILD)/gostat/render/callgrind.o $(BUILD)/gostat/render/intern.o \
	$(BUILD)/gostat/render/utf8.o $(BUILD)/gostat/render/duration.o $(BUILD)/gostat/render/term.o \
	$(BUILD)/gostat/read/statsfile.o $(BUILD)/gostat/read/sigbus_guard.o $(BUILD)/gostat/read/statsfile_check.o \
	$(BUILD)/gostat/read/clock.o $(BUILD)/gostat/read/proc.o $(BUILD)/gostat/read/syms.o $(BUILD)/common/vec.o $(ERROR_OBJ)
$(UNIT)/test_cg_outputs: UNIT_LIBS := -lm
$(UNIT)/test_callgraph: UNIT_LIBS := -lm
$(UNIT)/test_regex_compile: $(BUILD)/common/regex_compile.o $(ERROR_OBJ)
$(UNIT)/test_select: $(BUILD)/rewriter/plan/select.o $(BUILD)/common/regex_compile.o $(ERROR_OBJ)
$(UNIT)/test_trace_values: $(BUILD)/gostat/render/trace_values.o $(BUILD)/gostat/read/trace_desc_check.o \
	$(BUILD)/rewriter/find/trace_desc_build.o $(BUILD)/common/strbuf.o $(BUILD)/common/vec.o \
	$(BUILD)/common/safe_text.o
$(UNIT)/test_trace_values: UNIT_LIBS := -lm
$(UNIT)/test_trace_read: $(BUILD)/gostat/read/trace_read.o $(BUILD)/gostat/read/sigbus_guard.o $(BUILD)/common/go_duration.o $(ERROR_OBJ)
$(UNIT)/test_trace_layout: $(BUILD)/rewriter/find/trace_abi.o
$(UNIT)/test_opttable: $(BUILD)/common/opttable.o $(BUILD)/common/opttable_help.o \
	$(BUILD)/common/opttable_man.o
$(UNIT)/test_opttable: UNIT_LIBS := -lm
$(UNIT)/test_insn_quick: $(BUILD)/rewriter/find/insn_quick.o
$(UNIT)/test_prologue $(UNIT)/test_leaf $(UNIT)/test_asm_funcs $(UNIT)/test_insn_quick: UNIT_LIBS := -lZydis -lZycore
$(UNIT)/test_returns $(UNIT)/test_call_sites $(UNIT)/test_asm_callers $(UNIT)/test_sched_hooks: UNIT_LIBS := -lZydis -lZycore -lelf
$(UNIT)/test_pclntab $(UNIT)/test_go_version: UNIT_LIBS := -lelf

REWRITER_UNITS := $(addprefix $(UNIT)/test_,prologue leaf asm_callers asm_funcs returns call_sites pclntab go_version dwarf_lines select trace_layout \
	offsets_sigcode insn_quick sched_hooks)
$(REWRITER_UNITS:=.o) $(UNIT)/fake_elf.o: INC = $(REWRITER_INC)
$(addsuffix .o,$(filter-out $(REWRITER_UNITS) %/test_vec %/test_regex_compile %/test_opttable %/test_safe_text %/test_timing_mode,$(UNIT_PROGS))): \
	INC = $(GOSTAT_INC)
$(UNIT)/test_vec.o $(UNIT)/test_regex_compile.o $(UNIT)/test_opttable.o $(UNIT)/test_safe_text.o $(UNIT)/test_timing_mode.o $(UNIT)/unit.o: INC = -I.

$(UNIT)/test_%: $(UNIT)/test_%.o $(UNIT)/unit.o
	$(CC) $(LDFLAGS) -o $@ $^ $(UNIT_LIBS)

$(UNIT)/%.o: tests/unit/%.S
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

unit-build: $(UNIT_PROGS)

unit: unit-build
	bash tests/unit/run.sh $(UNIT_PROGS)

# Multiple targets of a pattern rule are made by one run of its recipe.
$(PROTO_GEN)/%.pb-c.c $(PROTO_GEN)/%.pb-c.h: gostat/render/%.proto
	@mkdir -p $(PROTO_GEN)
	protoc-c --proto_path=gostat/render --c_out=$(PROTO_GEN) $<

$(PROTO_GEN)/%.pb-c.o: $(PROTO_GEN)/%.pb-c.c $(PROTO_GEN)/%.pb-c.h
	$(CC) $(CFLAGS) -I$(PROTO_GEN) -c -o $@ $<

# Generated before the first compile (-MMD lists it only afterwards).
$(BUILD)/gostat/render/pprof.o: $(PROTO_GEN)/profile.pb-c.h

# The stub blob: freestanding, position-independent code that runs inside the
# instrumented program. Linked at two different bases; identical bytes prove
# it has no absolute relocations and can be placed anywhere.
STUB_CFLAGS := -std=c11 -D_GNU_SOURCE -Os -ffreestanding -fno-builtin -fPIE -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-exceptions -fvisibility=hidden -fno-jump-tables \
	-mno-red-zone -mgeneral-regs-only -Wall -Wextra -Werror -I. -I$(BUILD)/gen -nostdlib -static -Wl,--no-warn-rwx-segments -Wl,--build-id=none
# The assembly's byte offsets, computed from the format headers' structs
# (format/asm_offsets.c): compiled to assembly text, each "->NAME VALUE"
# line becomes a macro (and each "=>NAME VALUE", a C header's constant).
ASM_OFFSETS := $(BUILD)/gen/format/asm_offsets.h
$(ASM_OFFSETS): format/asm_offsets.c $(wildcard format/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. -S -o $@.s format/asm_offsets.c
	{ echo '/* generated from format/asm_offsets.c by the Makefile: do not edit */'; \
	  echo '#ifndef GS_ASM_OFFSETS_H'; echo '#define GS_ASM_OFFSETS_H'; \
	  sed -n -e 's/^.*->\([A-Z0-9_]*\) \([0-9]*\).*$$/#define \1 \2/p' \
	      -e 's|^.*=>\([A-Z0-9_]*\) \([0-9]*\).*$$|#define \1 \2 /* format/gostat_format.h */|p' $@.s; \
	  echo '#endif'; } >$@.tmp
	mv $@.tmp $@

$(BUILD)/stubs/blob.bin: $(STUB_SRC) stubs/blob.ld $(wildcard stubs/*.h format/*.h) $(ASM_OFFSETS)
	@mkdir -p $(BUILD)/stubs
	$(CC) $(STUB_CFLAGS) -Wl,-T,stubs/blob.ld -Wl,--defsym=BLOB_BASE=0 -o $(BUILD)/stubs/blob0.elf $(STUB_SRC)
	$(CC) $(STUB_CFLAGS) -Wl,-T,stubs/blob.ld -Wl,--defsym=BLOB_BASE=0x10000 -o $(BUILD)/stubs/blob1.elf $(STUB_SRC)
	objcopy -O binary -j .blob $(BUILD)/stubs/blob0.elf $(BUILD)/stubs/blob0.bin
	objcopy -O binary -j .blob $(BUILD)/stubs/blob1.elf $(BUILD)/stubs/blob1.bin
	cmp $(BUILD)/stubs/blob0.bin $(BUILD)/stubs/blob1.bin || { echo "stub blob is not position independent"; exit 1; }
	cp $(BUILD)/stubs/blob0.bin $@

$(BUILD)/rewriter/stub_blob.o: rewriter/stub_blob.S $(BUILD)/stubs/blob.bin
	@mkdir -p $(dir $@)
	$(CC) -c -DBLOB_PATH='"$(BUILD)/stubs/blob.bin"' -o $@ rewriter/stub_blob.S

# `make install PREFIX=/usr/local DESTDIR=` installs the two programs and
# their manual pages (docs/man); uninstall removes exactly those files.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  := $(DESTDIR)$(PREFIX)/bin
MAN1DIR := $(DESTDIR)$(PREFIX)/share/man/man1
install: bin/gorewrite bin/gostat
	install -d $(BINDIR) $(MAN1DIR)
	install -m 0755 bin/gorewrite bin/gostat $(BINDIR)/
	install -m 0644 docs/man/gorewrite.1 docs/man/gostat.1 $(MAN1DIR)/

uninstall:
	rm -f $(BINDIR)/gorewrite $(BINDIR)/gostat $(MAN1DIR)/gorewrite.1 $(MAN1DIR)/gostat.1

# The unit tests first: seconds, and they name the module that broke.
check: deps
	$(MAKE) unit
	$(MAKE) all tools fuzz-build
	bash tests/run.sh

# Mutation checks: deliberately broken builds of gorewrite and gostat
# (tests/mutants/*.patch) that the tests must catch; prints which test
# killed each mutant (tests/mutants/run.sh). `check` runs it too
# (tests/project/t_mutants.sh, 4-6 min).
.PHONY: mutants
mutants: deps
	$(MAKE) all tools
	bash tests/mutants/run.sh

demo: deps
	$(MAKE) all
	bash scripts/demo.sh

# make bench: cost per call (scripts/bench.sh, build/bench/results.md), then
# the macro benchmarks. make bench-macro alone: what instrumenting costs real
# programs (scripts/bench_macros.sh runs them; MACRO_ROUNDS interleaved
# rounds each): gofmt, `go build -a cmd/gofmt` with Go 1.22's compile
# instrumented in each mode (scripts/bench_macro.py, about 1.5 min a round on
# 2 cores; build/bench/macro.md); service, testdata/service under hey's load
# (scripts/bench_service.py, about 30 s a round; build/bench/service.md);
# accuracy, the default's estimated totals against --time-all's on the gofmt
# build (scripts/bench_accuracy.py, about 1 min a round;
# build/bench/accuracy.md). MACRO=service (or gofmt, accuracy, or several)
# runs only those; MACRO_SELECTION=1 adds the modes that instrument only the
# program's own packages (docs/selection.md).
MACRO_ROUNDS ?= 5
MACRO ?= gofmt service accuracy
MACRO_SELECTION ?=
bench: deps
	$(MAKE) all
	bash scripts/bench.sh
	MACRO_ROUNDS=$(MACRO_ROUNDS) MACRO_SELECTION=$(MACRO_SELECTION) bash scripts/bench_macros.sh $(MACRO)

bench-macro: deps
	$(MAKE) all
	MACRO_ROUNDS=$(MACRO_ROUNDS) MACRO_SELECTION=$(MACRO_SELECTION) bash scripts/bench_macros.sh $(MACRO)

# make bench-memory: the instrumented program's peak RSS and where it goes,
# Debian's Prometheus in each mode (scripts/bench_memory.sh; ~3 min).
bench-memory: deps
	$(MAKE) all
	bash scripts/bench_memory.sh

# Builds everything with ASan+UBSan, runs the tests (with SANITIZE in their
# environment, so that a test that runs make, such as t_install, builds
# sanitized too), and cleans again so no sanitized object lingers in later
# normal builds.
# clean-objs keeps the Go build cache (the tests' Go builds stay fast), the
# fuzz harnesses (ASan/UBSan builds whatever SANITIZE says) and what deps
# installs project-locally (build/toolchains, build/npm, build/prometheus).
asan: deps
	$(MAKE) clean-objs
	$(MAKE) SANITIZE=address,undefined unit-build all tools fuzz-build
	export ASAN_OPTIONS=detect_leaks=1 SANITIZE=address,undefined; bash tests/unit/run.sh $(UNIT_PROGS) && \
	bash tests/run.sh; rc=$$?; $(MAKE) clean-objs; exit $$rc

# Fuzzing (fuzz/README.md): libFuzzer harnesses built with clang, ASan and
# UBSan. `make check` replays the committed corpus and crash reproducers
# (tests/project/t_fuzz_replay.sh); `make fuzz` fuzzes each harness for
# FUZZ_SECONDS on one core and merges new inputs into the corpus;
# `make fuzz-corpus` rebuilds the corpus from fresh seeds (after a change
# of the stats-file format).
FUZZ_CC      := clang-14
FUZZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -MMD -MP \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
FUZZ_ELF_OBJ := $(patsubst %.c,$(BUILD)/fuzz/%.o,fuzz/fuzz_elf.c \
	$(filter-out rewriter/main.c rewriter/rewrite.c rewriter/gen/image.c rewriter/gen/stub_config.c, \
	$(REWRITER_SRC)))
FUZZ_REWRITE_OBJ := $(patsubst %.c,$(BUILD)/fuzz/%.o,fuzz/fuzz_rewrite.c \
	$(filter-out rewriter/main.c,$(REWRITER_SRC))) $(BUILD)/rewriter/stub_blob.o
FUZZ_STATS_OBJ := $(patsubst %.c,$(BUILD)/fuzz/%.o,fuzz/fuzz_statsfile.c \
	$(filter-out gostat/main.c,$(GOSTAT_SRC)))
FUZZ_STATS_OBJ += $(BUILD)/fuzz/gen/profile.pb-c.o
FUZZ_JSON_OBJ := $(BUILD)/fuzz/fuzz/fuzz_profile_json.o \
	$(filter-out $(BUILD)/fuzz/fuzz/fuzz_statsfile.o,$(FUZZ_STATS_OBJ))
FUZZ_SECONDS ?= 600

fuzz-build: $(BUILD)/fuzz/fuzz_elf $(BUILD)/fuzz/fuzz_rewrite $(BUILD)/fuzz/fuzz_statsfile $(BUILD)/fuzz/fuzz_trace_desc $(BUILD)/fuzz/fuzz_profile_json

$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_INC) -c -o $@ $<

$(BUILD)/fuzz/common/%.o $(BUILD)/fuzz/elf/%.o $(BUILD)/fuzz/rewriter/%.o $(BUILD)/fuzz/fuzz/fuzz_elf.o \
	$(BUILD)/fuzz/fuzz/fuzz_rewrite.o: FUZZ_INC = $(REWRITER_INC)
$(BUILD)/fuzz/gostat/%.o $(BUILD)/fuzz/fuzz/fuzz_statsfile.o $(BUILD)/fuzz/fuzz/fuzz_trace_desc.o \
	$(BUILD)/fuzz/fuzz/fuzz_profile_json.o: FUZZ_INC = $(GOSTAT_INC)

$(BUILD)/fuzz/gen/%.pb-c.o: $(PROTO_GEN)/%.pb-c.c $(PROTO_GEN)/%.pb-c.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(PROTO_GEN) -c -o $@ $<

$(BUILD)/fuzz/gostat/render/pprof.o: $(PROTO_GEN)/profile.pb-c.h

$(BUILD)/fuzz/fuzz_elf: $(FUZZ_ELF_OBJ)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LIBS_REWRITER)

$(BUILD)/fuzz/fuzz_rewrite: $(FUZZ_REWRITE_OBJ)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LIBS_REWRITER)

$(BUILD)/fuzz/fuzz_statsfile: $(FUZZ_STATS_OBJ)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LIBS_GOSTAT)

$(BUILD)/fuzz/fuzz_trace_desc: $(patsubst %.c,$(BUILD)/fuzz/%.o,fuzz/fuzz_trace_desc.c \
	gostat/render/trace_values.c gostat/read/trace_desc_check.c common/strbuf.c common/vec.c common/safe_text.c)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^
$(BUILD)/fuzz/fuzz_profile_json: $(FUZZ_JSON_OBJ)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LIBS_GOSTAT)

fuzz: deps
	$(MAKE) all fuzz-build
	bash scripts/fuzz.sh run $(FUZZ_SECONDS)

fuzz-corpus: deps
	$(MAKE) all fuzz-build
	bash scripts/fuzz.sh corpus

# Header dependencies, written by -MMD -MP beside each object.
-include $(patsubst %.o,%.d,$(REWRITER_OBJ) $(GOSTAT_OBJ) $(FUZZ_ELF_OBJ) $(FUZZ_STATS_OBJ) $(FUZZ_JSON_OBJ)) $(TOOLS:=.d) $(DWARFDUMP_OBJ:.o=.d) \
	$(UNIT_OBJ:.o=.d) $(wildcard $(BUILD)/tests/trace/*.d $(BUILD)/fuzz/fuzz/*.d)

clean:
	rm -rf $(BUILD) bin

clean-objs:
	rm -rf bin $(filter-out $(BUILD)/gocache $(BUILD)/gopath $(BUILD)/fuzz $(BUILD)/toolchains $(BUILD)/npm $(BUILD)/prometheus,$(wildcard $(BUILD)/*))
