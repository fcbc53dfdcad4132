# sbledger: build, test, demo, bench.
#
#   make            ./sbledger (optimised)
#   make check      every test, built with AddressSanitizer + UBSan
#   make demo       a ledger from the sample runs and a summary
#   make bench      the import benchmark against the Python peer
#   make install PREFIX=/usr/local
#
# The first step of every target is tools/deps.sh, which installs what is
# missing (Debian, as root) or says exactly what to install.

PREFIX   ?= /usr/local
CC       ?= cc
PKGS     := sqlite3 jansson libcurl libcrypto zlib
TESTPKGS := cmocka
BUILD    := build

WARN     := -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wno-sign-conversion \
            -Wno-format-truncation -Werror
BASEFLAGS = -std=c11 -D_GNU_SOURCE -I. -I$(BUILD) $(WARN) -MMD -MP \
            $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
TESTLIBS  = $(shell pkg-config --libs $(TESTPKGS) 2>/dev/null)

OPTFLAGS := -O2 -g
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
            -fno-omit-frame-pointer

LIB_SRC  := $(sort $(wildcard ledger/*.c importers/*.c reconcile/*.c))
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))
SUP_SRC  := $(sort $(wildcard tests/support/*.c))
SQL      := $(sort $(wildcard sql/*/*.sql))

# Object lists for one build flavour: $(call objs,DIR,SOURCES)
objs = $(patsubst %.c,$(1)/%.o,$(2))

OPT_LIB  := $(call objs,$(BUILD)/opt,$(LIB_SRC)) $(BUILD)/opt/sql_embed.o
SAN_LIB  := $(call objs,$(BUILD)/san,$(LIB_SRC)) $(BUILD)/san/sql_embed.o
OPT_CLI  := $(call objs,$(BUILD)/opt,$(CLI_SRC))
SAN_CLI  := $(call objs,$(BUILD)/san,$(CLI_SRC))
SAN_SUP  := $(call objs,$(BUILD)/san,$(SUP_SRC))
TESTS    := $(patsubst tests/%.c,$(BUILD)/san/tests/%,$(TEST_SRC))

DEPS_OK  := $(BUILD)/deps.ok

.PHONY: all deps check check-build check-run unit cli-tests http-tests html-tests fuzz-check failmalloc failmalloc-check reliability-tests valgrind-tests demo bench fuzz install clean
.SECONDARY: $(OPT_LIB) $(OPT_CLI) $(SAN_LIB) $(SAN_CLI) $(SAN_SUP) $(TESTS:%=%.o)

all: $(DEPS_OK) sbledger

deps: $(DEPS_OK)
$(DEPS_OK): tools/deps.sh
	@sh tools/deps.sh
	@mkdir -p $(BUILD) && touch $@

sbledger: $(OPT_CLI) $(OPT_LIB)
	$(CC) $(OPTFLAGS) -o $@ $^ $(LIBS)

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

$(BUILD)/opt/%.o: %.c $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(OPTFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SANFLAGS) -c -o $@ $<

$(BUILD)/san/tests/%: $(BUILD)/san/tests/%.o $(SAN_SUP) $(SAN_LIB)
	$(CC) $(SANFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

# Unit tests (cmocka), then the command-line tests, all under the
# sanitizers.  Each test binary prints cmocka's summary.  Then the
# reliability tests (docs/reliability.md): the fuzz corpora and a short
# burst, allocation failures, kills and processes at once, valgrind.
# Everything is built first, in parallel (one job per online CPU), then
# the tests run one suite after another (some are timing-sensitive).
JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
check: $(DEPS_OK)
	@$(MAKE) --no-print-directory -j$(JOBS) check-build
	@$(MAKE) --no-print-directory check-run

check-run: unit cli-tests http-tests html-tests fuzz-check failmalloc-check reliability-tests \
           valgrind-tests
	@echo "make check: all tests passed"

unit: $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; \
	  SBLEDGER_SQL_DIR=sql $$t; done

cli-tests: $(BUILD)/san/sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/cli/run.sh

# The provider APIs and the nightly job, against a fake provider on
# 127.0.0.1 (tests/http/provider_server.py).
http-tests: $(BUILD)/san/sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/http/run.sh

# The HTML pages rendered by headless Chromium (skipped, saying so, when
# Chromium cannot be installed).
html-tests: $(BUILD)/san/sbledger
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
FUZZ_NAMES := money timestamp period lines csv jsonarray runs \
              $(addprefix billing_,$(FUZZ_BILLING))
FUZZ_LIB   := $(call objs,$(BUILD)/fuzz,$(LIB_SRC)) $(BUILD)/fuzz/sql_embed.o
FUZZERS    := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NAMES))

$(BUILD)/fuzz/sql_embed.o: $(BUILD)/sql_embed.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS) -c -o $@ $<

$(BUILD)/fuzz/%.o: %.c $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS) -c -o $@ $<

# (static patterns: a pattern rule whose prerequisite is one fixed file
# would match any name, the included .d files too)
FUZZ_BILLING_OBJS := $(FUZZ_BILLING:%=$(BUILD)/fuzz/billing_%.o)
$(FUZZ_BILLING:%=$(BUILD)/fuzz/fuzz_billing_%): $(BUILD)/fuzz/fuzz_billing_%: \
		$(BUILD)/fuzz/billing_%.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

$(FUZZ_BILLING_OBJS): $(BUILD)/fuzz/billing_%.o: tests/fuzz/fuzz_billing.c $(DEPS_OK)
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

failmalloc: $(BUILD)/san/sbledger $(BUILD)/reliability/failmalloc.so
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/failmalloc.sh

failmalloc-check: $(BUILD)/san/sbledger $(BUILD)/reliability/failmalloc.so
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/failmalloc.sh --every $(FAILMALLOC_EVERY)

# Crash safety (SIGKILL at many points) and processes at once, under the
# sanitizers.
reliability-tests: $(BUILD)/san/sbledger
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/kill.sh
	@SBLEDGER=$(abspath $(BUILD)/san/sbledger) sh tests/reliability/concurrency.sh

# The command-line tests with ./sbledger under valgrind --leak-check=full:
# a subset in make check (VALGRIND_CASES=all: every case, twenty minutes).
VALGRIND_CASES ?= --quick
valgrind-tests: sbledger
	@SBLEDGER=$(abspath sbledger) sh tests/reliability/valgrind.sh \
	  $(if $(filter all,$(VALGRIND_CASES)),,$(VALGRIND_CASES))

fuzz: $(DEPS_OK) $(FUZZERS)
	@sh tests/fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZERS)

# What make check builds before it tests (here, below FUZZERS: a rule's
# prerequisites are expanded where the rule is read).
check-build: sbledger $(TESTS) $(BUILD)/san/sbledger $(FUZZERS) $(BUILD)/reliability/failmalloc.so

fuzz-check: $(DEPS_OK) $(FUZZERS)
	@sh tests/fuzz/run.sh --check --seconds $(FUZZ_CHECK_SECONDS) $(FUZZERS)

demo: $(DEPS_OK) sbledger
	@sh examples/demo.sh ./sbledger

bench: $(DEPS_OK) sbledger
	@sh bench/run.sh

install: sbledger
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 sbledger $(DESTDIR)$(PREFIX)/bin/sbledger

clean:
	rm -rf $(BUILD) sbledger

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
