# dama – one Makefile.  `make` builds bin/dama; `make test` runs the suite; `make sanitize`
# runs the same suite under AddressSanitizer and UBSan; `make valgrind` runs the fast tests
# under valgrind memcheck; `make bench` prints benchmark figures; `make fuzz` builds the
# libFuzzer targets of tests/fuzz/ (clang) that scripts/fuzz runs.
# Build variants live in their own directories (build/opt, build/san, build/vg, build/fuzz)
# so they never mix.

CC      ?= cc
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# The layers, lowest first (docs/design.md, "Layers").  A room's sources see the headers
# of the room itself and of the rooms its LAYER_ line names, never of a room above: an
# upward #include does not build.
LAYER_engine   :=
LAYER_egdb     := engine
LAYER_store    := engine
LAYER_selfplay := engine egdb store
LAYER_tuner    := engine store
LAYER_book     := engine egdb store selfplay
LAYER_analysis := engine egdb store selfplay tuner book
LAYER_hub      := engine egdb store selfplay book
LAYER_dxp      := engine egdb store selfplay book
LAYER_play     := engine egdb store selfplay tuner book analysis
LAYER_train    := engine egdb store selfplay tuner book analysis hub dxp
LAYER_server   := engine egdb store selfplay tuner book analysis hub dxp play train
LAYER_cli      := engine egdb store selfplay tuner book analysis hub dxp play train server
ROOMS          := engine egdb store selfplay tuner book analysis hub dxp play train server cli
LAYER_tests    := $(ROOMS)
# Upward includes the tree still has would be named here, one LAYER_UPWARD_room line each
# (e.g. LAYER_UPWARD_server := cli/x.h): scripts/layer-check lets exactly those through and
# fails once one is no longer included.  There are none.
# A room is the first folder of a source's path (tests/fuzz/x.c is in tests).  Its -I list
# names the folders of itself and its layers that exist (a room not yet made is skipped);
# a source outside every room stops the build.
room_of  = $(firstword $(subst /, ,$(1)))
room_dirs = $(wildcard $(1) $(LAYER_$(1)) $(sort $(patsubst %/,%,$(dir $(LAYER_UPWARD_$(1))))))
# Each game is a folder of engine/games/ (engine/games/README.md): its files include one
# another by name, and only the engine and the tests see a game's own headers.
GAME_DIRS = $(patsubst %/,%,$(sort $(dir $(wildcard engine/games/*/*.c))))
game_inc = $(if $(filter engine tests,$(1)),$(addprefix -I,$(GAME_DIRS)))
room_inc = $(if $(filter undefined,$(origin LAYER_$(1))),$(error $(1)/ is in no layer of the Makefile),$(addprefix -I,$(call room_dirs,$(1))) $(call game_inc,$(1)))
INC      = $(call room_inc,$(call room_of,$<))
PKGS     = sqlite3 zlib libmicrohttpd jansson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
# libcsv ships no pkg-config file on Debian.
LIBS     = $(PKG_LIBS) -lcsv -lm
OPENMP   = -fopenmp

OPT_FLAGS ?= -O3 -march=native -g
SAN_FLAGS  = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
# valgrind cannot run every instruction -march=native may choose (AVX-512 and the like).
VG_FLAGS   = -O1 -g -fno-omit-frame-pointer

LIB_SRC  = $(filter-out cli/main.c, $(wildcard $(addsuffix /*.c,$(ROOMS)) engine/games/*.c engine/games/*/*.c))
TEST_SRC = $(wildcard tests/test_*.c)
BENCH_SRC = $(wildcard tests/bench/*.c)

# $(call objs,DIR,SOURCES)
objs = $(patsubst %.c,$(1)/%.o,$(2))

OPT_DIR = build/opt
SAN_DIR = build/san
VG_DIR  = build/vg
OPT_LIB = $(call objs,$(OPT_DIR),$(LIB_SRC))
SAN_LIB = $(call objs,$(SAN_DIR),$(LIB_SRC))
VG_LIB  = $(call objs,$(VG_DIR),$(LIB_SRC))
OPT_TESTS = $(patsubst tests/%.c,$(OPT_DIR)/tests/%,$(TEST_SRC))
SAN_TESTS = $(patsubst tests/%.c,$(SAN_DIR)/tests/%,$(TEST_SRC))
# The fast tests: each runs in seconds natively.  test_pipeline, test_search, test_texel and
# test_bad_inputs (20 s to 2 min natively, far longer under memcheck) are left to
# `make sanitize`; so is test_export, whose Ctrl-C test raises SIGINT while it is blocked
# and then execs dama: memcheck keeps such a signal in its own books, and exec loses it.
VG_TEST_NAMES = test_rules test_eval test_sprt test_cli test_store test_store_crash \
                test_db_readers test_analysis test_pdn test_serve
VG_TESTS = $(addprefix $(VG_DIR)/tests/,$(VG_TEST_NAMES))
OPT_BENCHES = $(patsubst tests/bench/%.c,$(OPT_DIR)/bench/%,$(BENCH_SRC))

# libFuzzer: every object with coverage and ASan+UBSan, one binary per tests/fuzz/fuzz_*.c.
FUZZ_CC    = clang
FUZZ_FLAGS = -O2 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_DIR   = build/fuzz
FUZZ_SRC   = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_LIB   = $(call objs,$(FUZZ_DIR)/obj,$(LIB_SRC))
FUZZ_TARGETS = $(patsubst tests/fuzz/fuzz_%.c,$(FUZZ_DIR)/%,$(FUZZ_SRC))

# The objects of test, bench and fuzz programs are built by chained pattern rules, which
# makes them intermediate files that make deletes after linking: the next `make test` would
# compile every test again.  Secondary files are kept.
.SECONDARY: $(addsuffix .o,$(OPT_TESTS) $(SAN_TESTS) $(VG_TESTS)) \
            $(patsubst tests/bench/%.c,$(OPT_DIR)/tests/bench/%.o,$(BENCH_SRC)) \
            $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/obj/tests/fuzz/%.o,$(FUZZ_SRC))

# `make` alone builds bin/dama: the version rules below must not become the default goal.
.DEFAULT_GOAL := all

# The build's git commit goes into engine/version.o only: a new commit rebuilds that one
# object.  build/commit keeps the last value and is rewritten only when it changes, so its
# time tells make when version.o is stale.
DAMA_COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
COMMIT_STAMP = build/commit
$(shell mkdir -p build && (echo '$(DAMA_COMMIT)' | cmp -s - $(COMMIT_STAMP) || echo '$(DAMA_COMMIT)' > $(COMMIT_STAMP)))
VERSION_OBJS = $(OPT_DIR)/engine/version.o $(SAN_DIR)/engine/version.o $(VG_DIR)/engine/version.o
$(VERSION_OBJS): $(COMMIT_STAMP)
$(VERSION_OBJS): OBJ_DEFS = -DDAMA_COMMIT='"$(DAMA_COMMIT)"'
# The shipped best weights are built in (each game's engine/games/GAME/GAME_shipped.c,
# .incbin): rebuilt when a file changes.
SHIPPED_WEIGHTS = $(wildcard data/weights/*-pattern.txt)
SHIPPED_OBJS = $(patsubst %.c,%.o,$(wildcard engine/games/*/*_shipped.c))
$(foreach d,$(OPT_DIR) $(SAN_DIR) $(VG_DIR) $(FUZZ_DIR)/obj,$(addprefix $(d)/,$(SHIPPED_OBJS))): $(SHIPPED_WEIGHTS)
# The commands' help texts, cli/help/*.txt, are built in the same way (cli/help_files.c).
$(foreach d,$(OPT_DIR) $(SAN_DIR) $(VG_DIR) $(FUZZ_DIR)/obj,$(d)/cli/help_files.o): $(wildcard cli/help/*.txt)

.PHONY: all test js-test js-lint browser-test layer-check layer-table sanitize valgrind bench fuzz clean
all: bin/dama

bin/dama: $(OPT_DIR)/cli/main.o $(OPT_LIB)
	@mkdir -p $(@D)
	$(CC) $(OPT_FLAGS) $(OPENMP) -o $@ $^ $(LIBS)

$(OPT_DIR)/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC $<"
	@$(CC) $(STD) $(WARN) $(OPT_FLAGS) $(OPENMP) $(INC) $(PKG_CFLAGS) $(OBJ_DEFS) -MMD -MP -c -o $@ $<

$(SAN_DIR)/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC (sanitize) $<"
	@$(CC) $(STD) $(WARN) $(SAN_FLAGS) $(OPENMP) $(INC) $(PKG_CFLAGS) $(OBJ_DEFS) -MMD -MP -c -o $@ $<

$(VG_DIR)/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC (valgrind) $<"
	@$(CC) $(STD) $(WARN) $(VG_FLAGS) $(OPENMP) $(INC) $(PKG_CFLAGS) $(OBJ_DEFS) -MMD -MP -c -o $@ $<

$(OPT_DIR)/tests/%: $(OPT_DIR)/tests/%.o $(OPT_LIB)
	$(CC) $(OPT_FLAGS) $(OPENMP) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

$(SAN_DIR)/tests/%: $(SAN_DIR)/tests/%.o $(SAN_LIB)
	$(CC) $(SAN_FLAGS) $(OPENMP) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

$(SAN_DIR)/bin/dama: $(SAN_DIR)/cli/main.o $(SAN_LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) $(OPENMP) -o $@ $^ $(LIBS)

$(VG_DIR)/tests/%: $(VG_DIR)/tests/%.o $(VG_LIB)
	$(CC) $(VG_FLAGS) $(OPENMP) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

$(VG_DIR)/bin/dama: $(VG_DIR)/cli/main.o $(VG_LIB)
	@mkdir -p $(@D)
	$(CC) $(VG_FLAGS) $(OPENMP) -o $@ $^ $(LIBS)

# Every test binary runs from the project root; DAMA_BIN tells end-to-end tests which
# dama to drive.  The runner runs them all and exits non-zero when one fails or leaves
# scratch files (/tmp/dama-*) behind.
test: bin/dama $(OPT_TESTS) js-test js-lint
	@DAMA_BIN=bin/dama scripts/run-tests $(OPT_TESTS)
	@MAKE='$(MAKE)' scripts/layer-check
	@DAMA_BIN=bin/dama scripts/browser-test

# The page's pure modules (board state, geometry, move input) under node's own test
# runner, and its code under Debian's eslint (.eslintrc.json); NODE_PATH lets a node
# from elsewhere find Debian's node modules.
JS_TESTS = $(wildcard tests/js/*.test.mjs)
js-test:
	@node --test $(JS_TESTS)
js-lint:
	@NODE_PATH=/usr/share/nodejs eslint --max-warnings 0 --ext .js,.mjs web tests/js && echo "eslint: web/ and tests/js/ clean"

# The page in headless Chromium against bin/dama serve (also the last step of `make test`).
browser-test: bin/dama
	@DAMA_BIN=bin/dama scripts/browser-test

# The layers hold (scripts/layer-check, also a step of `make test`): the whole tree builds
# with each room's own -I list, and an upward include does not.
layer-check: bin/dama $(OPT_TESTS) $(OPT_BENCHES)
	@MAKE='$(MAKE)' scripts/layer-check

# What scripts/layer-check reads, a line a room: "room;layers;upward includes;the command
# that compiles the room's sources" (the flags of the pattern rules, without -O and -MMD).
layer-table:
	@$(foreach r,$(ROOMS) tests,echo '$(r);$(LAYER_$(r));$(LAYER_UPWARD_$(r));$(CC) $(STD) $(WARN) $(OPENMP) $(call room_inc,$(r)) $(PKG_CFLAGS)';)

sanitize: $(SAN_DIR)/bin/dama $(SAN_TESTS)
	@DAMA_BIN=$(SAN_DIR)/bin/dama DAMA_SANITIZE=1 ASAN_OPTIONS=detect_leaks=1 \
	  scripts/run-tests $(SAN_TESTS)

# Memcheck over the fast tests and over every dama they start (DAMA_BIN runs it under
# valgrind too).  Any error or definite/indirect leak fails: exit 1 for a test binary, and
# for a dama child its log in build/vg/logs (a child's exit code is the test's to check).
valgrind: $(VG_DIR)/bin/dama $(VG_TESTS)
	@VG_DIR=$(VG_DIR) scripts/valgrind-tests $(VG_TESTS)

$(OPT_DIR)/bench/%: $(OPT_DIR)/tests/bench/%.o $(OPT_LIB)
	@mkdir -p $(@D)
	$(CC) $(OPT_FLAGS) $(OPENMP) -o $@ $^ $(LIBS)

bench: bin/dama $(OPT_BENCHES)
	@BENCH_DIR=$(OPT_DIR)/bench scripts/bench

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC (fuzz) $<"
	@$(FUZZ_CC) $(STD) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(OPENMP) $(INC) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_TARGETS): $(FUZZ_DIR)/%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(OPENMP) -o $@ $^ $(LIBS)

fuzz: $(FUZZ_TARGETS)

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
