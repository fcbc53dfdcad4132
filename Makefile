# sbledger: build, test, demo, bench.
#
#   make            ./sbledger (optimised) and its man page sbledger.1
#   make test       the unit, command-line and HTTP tests (about two minutes
#                   on a fresh clone), under AddressSanitizer + UBSan
#   make check      everything a contributor must pass (under ten minutes):
#                   make test, the HTML pages in Chromium, the fuzz corpora,
#                   allocation failures, kills, processes at once, valgrind,
#                   the threaded import under ThreadSanitizer (make tsan)
#   make check-long the long suites: valgrind over every command-line case,
#                   FUZZ_SECONDS of fuzzing per target, every allocation
#                   failed in turn (and $(CHECK_LONG_EXTRA))
#   make demo       a ledger from the sample runs and what sbledger makes of it
#   make bench      the import benchmark against the Python peer
#   make install PREFIX=/usr/local
#
# Each target first runs tools/deps.sh for what it needs (build: the
# compiler and libraries; test, fuzz, valgrind, html: the tools of those
# tests), which installs what is missing (Debian, as root) or says exactly
# what to install and fails: a test whose tool is missing fails, it is
# never skipped.

PREFIX   ?= /usr/local
CC       ?= cc
PKGS     := sqlite3 libpq jansson yajl libcurl libcrypto zlib
TESTPKGS := cmocka
BUILD    := build

WARN     := -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Werror
BASEFLAGS = -std=c11 -D_GNU_SOURCE -I. -I$(BUILD) $(WARN) -MMD -MP \
            $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
TESTLIBS  = $(shell pkg-config --libs $(TESTPKGS) 2>/dev/null)

OPTFLAGS := -O2 -g
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
            -fno-omit-frame-pointer

LIB_SRC  := $(sort $(wildcard ledger/*.c importers/*.c reconcile/*.c nightly/*.c report/*.c))
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))
SUP_SRC  := $(sort $(wildcard tests/support/*.c))
SQL      := $(sort $(wildcard sql/*/*.sql sql/pg/*/*.sql))

# Object lists for one build flavour: $(call objs,DIR,SOURCES)
objs = $(patsubst %.c,$(1)/%.o,$(2))

OPT_LIB  := $(call objs,$(BUILD)/opt,$(LIB_SRC)) $(BUILD)/opt/sql_embed.o
SAN_LIB  := $(call objs,$(BUILD)/san,$(LIB_SRC)) $(BUILD)/san/sql_embed.o
OPT_CLI  := $(call objs,$(BUILD)/opt,$(CLI_SRC))
SAN_CLI  := $(call objs,$(BUILD)/san,$(CLI_SRC))
SAN_SUP  := $(call objs,$(BUILD)/san,$(SUP_SRC))
TESTS    := $(patsubst tests/%.c,$(BUILD)/san/tests/%,$(TEST_SRC))

# What tools/deps.sh made sure of, one stamp per part (deps-build.ok, ...).
DEPS_OK       := $(BUILD)/deps-build.ok
TEST_DEPS     := $(BUILD)/deps-test.ok
FUZZ_DEPS     := $(BUILD)/deps-fuzz.ok
VALGRIND_DEPS := $(BUILD)/deps-valgrind.ok
HTML_DEPS     := $(BUILD)/deps-html.ok
TSAN_DEPS     := $(BUILD)/deps-tsan.ok
PG_DEPS       := $(BUILD)/deps-pg.ok
ALL_DEPS      := $(DEPS_OK) $(TEST_DEPS) $(FUZZ_DEPS) $(VALGRIND_DEPS) $(HTML_DEPS) $(TSAN_DEPS) $(PG_DEPS)

# The command layer without its main(), for the help test and the man page.
OPT_CLI_LIB := $(filter-out $(BUILD)/opt/cli/main.o,$(OPT_CLI))
SAN_CLI_LIB := $(filter-out $(BUILD)/san/cli/main.o,$(SAN_CLI))

.PHONY: all deps check-deps test check check-build check-run check-long rooms-check unit cli-tests http-tests \
        html-tests fuzz-check failmalloc failmalloc-check reliability-tests valgrind-tests tsan demo \
        bench fuzz install clean model-check model-check-long mutants pg-tests cli-tests-pg
.SECONDARY: $(OPT_LIB) $(OPT_CLI) $(SAN_LIB) $(SAN_CLI) $(SAN_SUP) $(TESTS:%=%.o) \
            $(BUILD)/opt/tools/mkman.o

all: $(DEPS_OK) sbledger sbledger.1

deps: $(DEPS_OK)
$(BUILD)/deps-%.ok: tools/deps.sh
	@sh tools/deps.sh $*
	@mkdir -p $(BUILD) && touch $@

# Everything make check needs, in one run of apt-get.
check-deps:
	@sh tools/deps.sh check
	@mkdir -p $(BUILD) && touch $(ALL_DEPS)

sbledger: $(OPT_CLI) $(OPT_LIB)
	$(CC) $(OPTFLAGS) -o $@ $^ $(LIBS)

# The man page, made from the command table's help (cli/help.c).
$(BUILD)/mkman: $(BUILD)/opt/tools/mkman.o $(OPT_CLI_LIB) $(OPT_LIB)
	$(CC) $(OPTFLAGS) -o $@ $^ $(LIBS)

sbledger.1: $(BUILD)/mkman
	$(BUILD)/mkman > $@.tmp && mv $@.tmp $@

$(BUILD)/san/sbledger: $(SAN_CLI) $(SAN_LIB)
	$(CC) $(SANFLAGS) -o $@ $^ $(LIBS)

# The SQL files, compiled in as text (sql/*/NAME.sql -> "DIR/NAME").
$(BUILD)/sql_embed.c: tools/embed_sql.sh $(SQL) $(DEPS_OK)
	@mkdir -p $(BUILD)
	sh tools/embed_sql.sh $(SQL) > $@.tmp && mv $@.tmp $@

$(BUILD)/opt/sql_embed.o: $(BUILD)/sql_embed.c
	$(CC) $(BASEFLAGS) $(OPTFLAGS) -c -o $@ $<
$(BUILD)/san/sql_embed.o: $(BUILD)/sql_embed.c
	$(CC) $(BASEFLAGS) $(SANFLAGS) -c -o $@ $<

# Each build's compiler line, kept in BUILD/VARIANT/.flags and rewritten
# only when it changes (a warning added to WARN, another CC): the objects
# depend on it, so a change of flags rebuilds them instead of leaving
# objects built the old way.
flags_stamp = $(shell mkdir -p $(BUILD)/$(1) && f=$(BUILD)/$(1)/.flags && \
                printf '%s\n' '$(2)' | cmp -s - $$f || printf '%s\n' '$(2)' >$$f)
$(call flags_stamp,opt,$(CC) $(BASEFLAGS) $(OPTFLAGS))
$(call flags_stamp,san,$(CC) $(BASEFLAGS) $(SANFLAGS))

$(BUILD)/opt/%.o: %.c $(DEPS_OK) $(BUILD)/opt/.flags
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(OPTFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c $(DEPS_OK) $(BUILD)/san/.flags
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SANFLAGS) -c -o $@ $<

$(BUILD)/san/tests/%: $(BUILD)/san/tests/%.o $(SAN_SUP) $(SAN_LIB)
	$(CC) $(SANFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

# (the unit tests include cmocka's header; the help test reads the
# command table)
$(TESTS:%=%.o) $(SAN_SUP): $(TEST_DEPS)
$(BUILD)/san/tests/test_help: $(SAN_CLI_LIB)
$(BUILD)/san/tests/test_words: $(SAN_CLI_LIB)

# Unit tests (cmocka), then the command-line tests, then the provider APIs
# and the nightly job against a fake provider and a fake proxy on 127.0.0.1
# (tests/http/provider_server.py, proxy_server.py), all under the
# sanitizers.  Each test binary prints cmocka's summary.
test: $(TEST_DEPS)
	@$(MAKE) --no-print-directory -j$(JOBS) $(TESTS) $(BUILD)/san/sbledger sbledger
	@$(MAKE) --no-print-directory -j1 rooms-check unit cli-tests http-tests
	@echo "make test: the unit, command-line and HTTP tests passed"

# make test, the HTML pages, then the reliability tests
# (docs/reliability.md): the fuzz corpora and a short burst, allocation
# failures, kills and processes at once, valgrind, ThreadSanitizer.  What
# they need is installed first; everything is built, in parallel (one job
# per online CPU), then the tests run one suite after another (some are
# timing-sensitive).
JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
check: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) check-build
	@$(MAKE) --no-print-directory -j1 check-run

CHECK_SUITES := rooms-check unit cli-tests http-tests html-tests fuzz-check failmalloc-check reliability-tests \
                valgrind-tests tsan model-check pg-tests
# each suite in turn, with the seconds it took (the ten-minute budget)
check-run:
	@for suite in $(CHECK_SUITES); do start=$$(date +%s); \
	  $(MAKE) --no-print-directory $$suite || exit 1; \
	  echo "make check: $$suite took $$(( $$(date +%s) - start )) s"; done
	@echo "make check: all tests passed"

# The long suites, after make check: valgrind over every command-line
# case (about twenty minutes), FUZZ_SECONDS of fuzzing per target, every
# allocation made to fail in turn, and the targets a change adds to
# CHECK_LONG_EXTRA (each a suite too long for make check).
CHECK_LONG_EXTRA ?=
check-long: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) check-build
	@$(MAKE) --no-print-directory valgrind-tests VALGRIND_CASES=all
	@$(MAKE) --no-print-directory fuzz
	@$(MAKE) --no-print-directory failmalloc
	@$(MAKE) --no-print-directory model-check-long
	@$(if $(strip $(CHECK_LONG_EXTRA)),$(MAKE) --no-print-directory $(CHECK_LONG_EXTRA),true)
	@echo "make check-long: all long suites passed"

# The rooms of docs/architecture.md held to the objects' undefined symbols
# (nm): who may call whom, and no library object that prints, reads the
# environment or exits; then the check shown to refuse a call it must.
rooms-check: $(BUILD)/san/sbledger
	@sh tools/rooms.sh $(BUILD)/san
	@sh tests/rooms/selftest.sh $(BUILD)/san | tail -1

unit: $(TEST_DEPS) $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; $$t; done

# (the hostile-input cases measure the optimised ./sbledger's memory)
cli-tests: $(TEST_DEPS) $(BUILD)/san/sbledger sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/cli/run.sh

# The PostgreSQL ledger against a real server (docs/postgresql.md): one
# throwaway cluster (tools/pg_cluster.sh, in a temporary directory,
# stopped and removed however the tests end) for the schema's match with
# SQLite's, every query prepared, the rows an import reads per record,
# check on a ledger edited into shapes its schema does not allow, the
# engine's unit test, the unit tests of PG_UNIT_TESTS (two at a time:
# each one's waits on the server overlap the other's work), the CLI suite
# (each case in a fresh database), and the concurrency and copy test with
# the disk-full test beside it (their databases are their own).
PG_ENGINE_TEST := $(BUILD)/san/tests/pg/test_pg_engine
$(PG_ENGINE_TEST).o: $(TEST_DEPS)
# the unit tests of the storage's callers that run on a PostgreSQL ledger
# as well (support_memory_ledger gives one when SBLEDGER_TEST_PG_DIR is
# set); the others look at SQLite itself (pragmas, plans, the file,
# its migrations) or read the ledger through sqlite3 calls not yet made
# portable (test_import, test_import_threads)
PG_UNIT_TESTS := $(addprefix $(BUILD)/san/tests/,test_billing test_billing_real test_budget test_http test_invoice test_line_list \
                 test_nightly test_precedence test_rates test_recon_detail test_reconcile test_runs_writer test_summary)
pg-tests: $(TEST_DEPS) $(BUILD)/deps-pg.ok $(BUILD)/san/sbledger sbledger $(PG_ENGINE_TEST) $(PG_UNIT_TESTS)
	@dir=$$(mktemp -d /tmp/sbpg.XXXXXX) || exit 70; \
	  trap 'sh tools/pg_cluster.sh stop "$$dir"; rm -rf "$$dir"' EXIT; trap 'exit 130' INT TERM; \
	  sh tools/pg_cluster.sh start "$$dir" >/dev/null || exit 70; \
	  set -e; sb=$(abspath $(BUILD)/san/sbledger); \
	  rm -f "$$dir/schema.db"; $$sb --db "$$dir/schema.db" init >/dev/null; \
	  url=$$(sh tools/pg_cluster.sh createdb "$$dir" schema_match); $$sb --db "$$url" init >/dev/null; \
	  sh tests/pg/schema_match.sh "$$dir/schema.db" "$$url" && echo "pg: the schemas of both engines match"; \
	  sh tests/pg/prepare_all.sh "$$url"; \
	  sh tests/pg/rows_read.sh $$sb "$$dir"; \
	  sh tests/pg/check_corrupt.sh $$sb "$$dir"; \
	  SBLEDGER_TEST_PG_DIR="$$dir" $(PG_ENGINE_TEST); \
	  printf '%s\n' $(PG_UNIT_TESTS) | xargs -P 2 -n 1 sh tests/pg/unit_on_pg.sh "$$dir"; \
	  CLI_ENGINE=pg CLI_PG_DIR="$$dir" SBLEDGER=$$sb sh tests/cli/run.sh; \
	  PG_DIR="$$dir" SBLEDGER=$$sb sh tests/reliability/pg_diskfull.sh >"$$dir/diskfull.log" 2>&1 & full=$$!; \
	  PG_DIR="$$dir" SBLEDGER=$$sb sh tests/reliability/pg_concurrency.sh && conc=0 || conc=$$?; \
	  wait $$full && full=0 || full=$$?; cat "$$dir/diskfull.log"; \
	  [ $$conc -eq 0 ] && [ $$full -eq 0 ]

# The same cases on the PostgreSQL ledger: each in a fresh database of a
# throwaway cluster (tools/pg_cluster.sh) in a temporary directory, which
# is stopped and removed however the tests end.
cli-tests-pg: $(TEST_DEPS) $(BUILD)/deps-pg.ok $(BUILD)/san/sbledger sbledger
	@dir=$$(mktemp -d /tmp/sbpg.XXXXXX) || exit 70; \
	  trap 'sh tools/pg_cluster.sh stop "$$dir"; rm -rf "$$dir"' EXIT; trap 'exit 130' INT TERM; \
	  sh tools/pg_cluster.sh start "$$dir" >/dev/null || exit 70; \
	  CLI_ENGINE=pg CLI_PG_DIR="$$dir" SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/cli/run.sh

http-tests: $(TEST_DEPS) $(BUILD)/san/sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/http/run.sh

# The HTML pages rendered by headless Chromium (installed first; the test
# fails when Chromium is missing).
html-tests: $(TEST_DEPS) $(HTML_DEPS) $(BUILD)/san/sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/html/render.sh

# libFuzzer targets (clang), one per parser: tests/fuzz/fuzz_NAME.c over
# the library built with -fsanitize=fuzzer-no-link; fuzz_billing.c is
# built once per billing format.  `make fuzz` runs each FUZZ_SECONDS;
# `make check` replays each corpus and fuzzes FUZZ_CHECK_SECONDS
# (tests/fuzz/run.sh).
FUZZ_CC            ?= clang
FUZZ_SECONDS       ?= 60
FUZZ_CHECK_SECONDS ?= 2
FUZZFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
             -fno-sanitize-recover=all -fno-omit-frame-pointer \
             -Wno-unknown-warning-option
FUZZ_BILLING := record focus modal daytona e2b_events deepinfra_usage
FUZZ_PLAIN := money timestamp period lines csv jsonarray runs json_in
FUZZ_NAMES := $(FUZZ_PLAIN) $(addprefix billing_,$(FUZZ_BILLING))
FUZZ_LIB   := $(call objs,$(BUILD)/fuzz,$(LIB_SRC)) $(BUILD)/fuzz/sql_embed.o
FUZZERS    := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NAMES))
# The fuzzers' own objects: on a fresh clone (no .d files yet) only a chain
# of pattern rules names them, so make took them for intermediates and
# deleted them at the end of check-build; the test phase, reading the .d
# files by then, found them missing and compiled and linked every fuzzer
# again.  Named here, they are kept.
FUZZ_MAIN_OBJS := $(FUZZ_PLAIN:%=$(BUILD)/fuzz/tests/fuzz/fuzz_%.o)
.SECONDARY: $(FUZZ_LIB) $(FUZZ_MAIN_OBJS)

$(BUILD)/fuzz/sql_embed.o: $(BUILD)/sql_embed.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS) -c -o $@ $<

$(call flags_stamp,fuzz,$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS))
$(BUILD)/fuzz/%.o: %.c $(FUZZ_DEPS) $(BUILD)/fuzz/.flags
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS) -c -o $@ $<

# (static patterns: a pattern rule whose prerequisite is one fixed file
# would match any name, the included .d files too)
FUZZ_BILLING_OBJS := $(FUZZ_BILLING:%=$(BUILD)/fuzz/billing_%.o)
$(FUZZ_BILLING:%=$(BUILD)/fuzz/fuzz_billing_%): $(BUILD)/fuzz/fuzz_billing_%: \
		$(BUILD)/fuzz/billing_%.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

$(FUZZ_BILLING_OBJS): $(BUILD)/fuzz/billing_%.o: tests/fuzz/fuzz_billing.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS) -DFUZZ_FORMAT='"$(subst _,-,$*)"' -c -o $@ $<

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

# Allocation failure injected (tests/reliability/failmalloc.sh): every
# allocation of import and reconcile made to fail in turn (`make
# failmalloc`), or every FAILMALLOC_EVERY-th (make check).
FAILMALLOC_EVERY ?= 113
$(BUILD)/reliability/failmalloc.so: tests/reliability/failmalloc.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -shared -fPIC -Wall -Wextra -Werror -o $@ $< -ldl

failmalloc: $(TEST_DEPS) $(BUILD)/san/sbledger $(BUILD)/reliability/failmalloc.so
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/failmalloc.sh

failmalloc-check: $(TEST_DEPS) $(BUILD)/san/sbledger $(BUILD)/reliability/failmalloc.so
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/failmalloc.sh --every $(FAILMALLOC_EVERY) --jobs $(JOBS)

# Crash safety (SIGKILL at many points) and processes at once, under the
# sanitizers.
reliability-tests: $(TEST_DEPS) $(BUILD)/san/sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/kill.sh --jobs $(JOBS)
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/concurrency.sh

# ThreadSanitizer over the import's thread pool (tests/reliability/tsan.sh):
# the library, the command layer and the threaded import tests built with
# -fsanitize=thread in build/tsan; test_import_threads, then sbledger
# import runs --threads 4 over a few thousand generated runs (against
# --threads 1).  A race reported fails it.
TSANFLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_LIB  := $(call objs,$(BUILD)/tsan,$(LIB_SRC)) $(BUILD)/tsan/sql_embed.o
TSAN_CLI  := $(call objs,$(BUILD)/tsan,$(CLI_SRC))
TSAN_SUP  := $(call objs,$(BUILD)/tsan,$(SUP_SRC))
TSAN_TEST := $(BUILD)/tsan/tests/test_import_threads
.SECONDARY: $(TSAN_LIB) $(TSAN_CLI) $(TSAN_SUP) $(TSAN_TEST).o

$(BUILD)/tsan/sql_embed.o: $(BUILD)/sql_embed.c $(TSAN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(TSANFLAGS) -c -o $@ $<

$(call flags_stamp,tsan,$(CC) $(BASEFLAGS) $(TSANFLAGS))
$(BUILD)/tsan/%.o: %.c $(TSAN_DEPS) $(BUILD)/tsan/.flags
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(TSANFLAGS) -c -o $@ $<

$(TSAN_TEST).o $(TSAN_SUP): $(TEST_DEPS)

$(BUILD)/tsan/sbledger: $(TSAN_CLI) $(TSAN_LIB)
	$(CC) $(TSANFLAGS) -o $@ $^ $(LIBS)

$(TSAN_TEST): $(TSAN_TEST).o $(TSAN_SUP) $(TSAN_LIB)
	$(CC) $(TSANFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

tsan: $(TEST_DEPS) $(TSAN_DEPS) $(TSAN_TEST) $(BUILD)/tsan/sbledger
	@SBLEDGER=$(abspath $(BUILD)/tsan/sbledger) sh tests/reliability/tsan.sh $(abspath $(TSAN_TEST))

# The reconciler against its reference model (tests/ref/recon_model.py,
# which reads the input files, never the ledger) on generated scenarios
# (tests/ref/gen_scenarios.py, seeded): MODEL_COUNT of them in make
# check, MODEL_LONG_COUNT of another seed in make check-long, each
# compared field by field (tests/ref/check_scenarios.py); ./sbledger, as
# the rules, not the memory, are under test.
MODEL_COUNT      ?= 300
MODEL_LONG_COUNT ?= 3000
model-check: $(DEPS_OK) sbledger
	@python3 tests/ref/check_scenarios.py --sbledger sbledger --seed 1 --count $(MODEL_COUNT) --quiet

model-check-long: $(DEPS_OK) sbledger
	@python3 tests/ref/check_scenarios.py --sbledger sbledger --seed long --count $(MODEL_LONG_COUNT) --quiet

# Each mutation of tests/mutants/*.mut applied alone to a copy of the tree,
# the quick suite (make test's tests) run on it without the sanitizers,
# and the tests that failed reported; a mutation that survives, does not
# build or whose snippet is not found exactly once fails it
# (tests/mutants/run.sh; about a minute and a half per mutation on two
# CPUs).  Not part of make check.  MUTANTS=M1 X3 for some of them.
MUTANTS ?=
mutants: $(TEST_DEPS)
	@sh tests/mutants/run.sh $(MUTANTS)

# The command-line tests with ./sbledger under valgrind --leak-check=full:
# a subset in make check (VALGRIND_CASES=all, as make check-long runs it:
# every case, twenty minutes).
VALGRIND_CASES ?= --quick
valgrind-tests: $(TEST_DEPS) $(VALGRIND_DEPS) sbledger
	@SBLEDGER=$(abspath sbledger) sh tests/reliability/valgrind.sh \
	  $(if $(filter all,$(VALGRIND_CASES)),,$(VALGRIND_CASES))

fuzz: $(FUZZ_DEPS) $(FUZZERS)
	@sh tests/fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZERS)

# What make check builds before it tests (here, below FUZZERS: a rule's
# prerequisites are expanded where the rule is read).
check-build: sbledger sbledger.1 $(TESTS) $(BUILD)/san/sbledger $(FUZZERS) $(BUILD)/reliability/failmalloc.so \
             $(TSAN_TEST) $(BUILD)/tsan/sbledger $(PG_ENGINE_TEST)

fuzz-check: $(FUZZ_DEPS) $(FUZZERS)
	@sh tests/fuzz/run.sh --check --seconds $(FUZZ_CHECK_SECONDS) $(FUZZERS)

demo: $(DEPS_OK) sbledger
	@sh examples/demo.sh ./sbledger

bench: $(DEPS_OK) sbledger
	@sh bench/run.sh

install: sbledger sbledger.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 sbledger $(DESTDIR)$(PREFIX)/bin/sbledger
	install -m 0644 sbledger.1 $(DESTDIR)$(PREFIX)/share/man/man1/sbledger.1

clean:
	rm -rf $(BUILD) sbledger sbledger.1

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
