# tracefig - turns performance traces into publication figures.
#
#   make            build build/tracefig
#   make demo       install missing build dependencies, build, render examples/
#   make check      install missing test dependencies, run every test
#   make golden     rewrite tests/golden/*/expected.* (review the diff!)
#   make bench      milliseconds per figure, and ratios against the reference;
#                   large traces, Nsight Systems exports and OTF2 archives
#                   (time, peak RSS)
#   make SAN=1 check    the same suite under ASan+UBSan (objects in build-san/)
#   make leakcheck  valgrind over every golden case and back-end
#   make lib        build/libtracefig.a, build/libtracefig.so.0 (src/tracefig.h)
#   make install PREFIX=/usr/local DESTDIR=   the command, its man pages,
#                   the library, its header and tracefig.pc
#
# Dependencies are Debian packages; tests/tools/deps.sh installs the missing
# ones with apt-get when run as root, and prints the exact command otherwise.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
# The man pages (man/*.N) go to $(MANDIR)/manN: sections 1, 3, 5 and 7.
MANDIR = $(PREFIX)/share/man
MANPAGES = $(sort $(wildcard man/*.[1-9]))
LIBDIR = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
PKGCONFIGDIR = $(LIBDIR)/pkgconfig

# libtracefig's version (src/tracefig.h has the same) and the SONAME's
# number, raised when the ABI changes.
LIB_VERSION = 0.1.0
LIB_SOVERSION = 0

CC ?= cc
SAN ?=
WERROR ?=
# zlib reads gzip'd traces (src/load/input.c): always linked.
PKGS = jansson zlib
# ISA-L (libisal-dev) inflates gzip'd traces about five times faster than
# zlib; zlib stays the fallback and the reference for errors.  Found with
# pkg-config (libisal) or, without a .pc file, by its header; TF_NO_ISAL=1
# builds without it (e.g. make BUILD=build-noisal TF_NO_ISAL=1 test).
ifeq ($(TF_NO_ISAL),)
HAVE_ISAL := $(shell pkg-config --exists libisal 2>/dev/null && echo 1)
ifneq ($(HAVE_ISAL),1)
HAVE_ISAL := $(shell printf '\043include <isa-l/igzip_lib.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
endif
endif
ifeq ($(HAVE_ISAL),1)
CPPFLAGS_ISAL = -DTF_HAVE_ISAL=1
endif
# (not linked: src/load/input.c dlopen()s libisal.so.2 at the first gzip'd
# trace, and inflates with zlib when it is missing at run time)
# libxml2 (SVG) is compiled against but not linked: src/render/svg.c
# dlopen()s it at the first SVG render, so other runs do not load it and the
# ICU and libstdc++ it brings.  The unit tests link it (they parse SVG).
# libsqlite3 likewise: src/load/sqlite.c dlopen()s it when it reads an SQLite
# database (an Nsight Systems export).
PKGS_LAZY = libxml-2.0 sqlite3
UNIT_LIBS_XML := $(shell pkg-config --libs libxml-2.0 2>/dev/null)

# cairo is optional: without it the build succeeds without PDF/PNG output.
# cairo-ft and freetype2 load the exact DejaVu font files for PDF/PNG text;
# zlib writes the PNG (all three come with libcairo2-dev).  cairo and
# FreeType are only compiled against: src/cairo.c dlopen()s them at the
# first PDF/PNG render, so other runs do not load their ~20 libraries.
# Only zlib (and -ldl) is linked; the unit tests also link FreeType.
# libotf2 (OTF2 archives: Debian's libotf2-trace-dev) is optional and, like
# libsqlite3, only compiled against: src/load/otf2.c dlopen()s
# libopen-trace-format2.so.10 when it reads an archive, so other runs do
# not load it, and a build without its header still succeeds (an archive
# then gets the message that says what to install).
HAVE_OTF2 := $(shell printf '\043include <otf2/otf2.h>\n' | $(CC) $$(otf2-config --cppflags 2>/dev/null) -E -x c - >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_OTF2),1)
CPPFLAGS_OTF2 = -DTF_HAVE_OTF2=1 $(shell otf2-config --cppflags 2>/dev/null)
endif

# libbabeltrace2 (CTF traces: Debian's libbabeltrace2-dev) likewise: only
# compiled against; src/load/ctf.c dlopen()s libbabeltrace2.so.0 when it
# reads a trace, and a build without its header says what to install.
HAVE_BT2 := $(shell printf '\043include <babeltrace2/babeltrace.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_BT2),1)
CPPFLAGS_BT2 = -DTF_HAVE_BT2=1
endif

HAVE_CAIRO := $(shell pkg-config --exists cairo cairo-ft freetype2 zlib 2>/dev/null && echo 1)
ifeq ($(HAVE_CAIRO),1)
PKGS_HEADERS_ONLY = cairo cairo-ft freetype2
CPPFLAGS_CAIRO = -DTF_HAVE_CAIRO=1
UNIT_LIBS_CAIRO := $(shell pkg-config --libs freetype2 2>/dev/null)
endif

ifeq ($(SAN),1)
BUILD = build-san
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT = -O1 -g
else
BUILD = build
SANFLAGS =
OPT = -O2 -g
endif

WARN = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wvla -Wdouble-promotion -Wimplicit-fallthrough
ifneq ($(WERROR),)
WARN += -Werror
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(PKGS_LAZY) $(PKGS_HEADERS_ONLY) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS ?= $(OPT)
# Every object goes into libtracefig, shared and static, and the command
# links the static one: position-independent code, and only the functions
# of src/tracefig.h exported from the shared one.
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -ffp-contract=off \
             -fPIC -fvisibility=hidden -DTRACEFIG_BUILDING \
             $(SANFLAGS) $(CPPFLAGS_CAIRO) $(CPPFLAGS_ISAL) $(CPPFLAGS_OTF2) $(CPPFLAGS_BT2) -Isrc -I$(BUILD) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
# -pthread: the input layer's optional reader thread (src/load/input.c).
LIBS = $(PKG_LIBS) -ldl -lm -pthread

# The source tree follows the pipeline: src/base (shared utilities), src/load
# (input formats: the only code that sees JSON), src/model (trace and figure
# models), src/rules (one file per mode; the generic Chrome mode is the
# folder src/rules/chrome, one file per concern), src/render (layout,
# back-ends).
SRC_DIRS := base load model rules rules/chrome render lib
SRCS := $(sort $(wildcard src/*.c $(patsubst %,src/%/*.c,$(SRC_DIRS))))
HDRS := $(wildcard src/*.h $(patsubst %,src/%/*.h,$(SRC_DIRS)))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS)) $(BUILD)/obj/templates.o
TEMPLATES := $(sort $(wildcard templates/*))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))

BIN = $(BUILD)/tracefig
UNIT = $(BUILD)/unit-tests
LIB_A = $(BUILD)/libtracefig.a
LIB_SONAME = libtracefig.so.$(LIB_SOVERSION)
LIB_SO = $(BUILD)/libtracefig.so.$(LIB_VERSION)
LIB_PC = $(BUILD)/tracefig.pc

.PHONY: FORCE lib fuzz fuzz-build fuzz-otf2-damage fuzz-xplane-damage all demo check deps-build deps-test deps-bench bench-run test unit golden golden-check parity \
        bench leakcheck install uninstall man-check clean examples parity-refresh

all: $(BIN) lib

lib: $(LIB_A) $(LIB_SO) $(LIB_PC)

# Redone when the Makefile changes: a new folder in SRC_DIRS gets its own.
$(BUILD)/obj/.dirs: Makefile
	@mkdir -p $(patsubst %,$(BUILD)/obj/%,$(SRC_DIRS))
	@touch $@

# Objects depend on the flags they were built with: a build made before the
# optional libraries (cairo) were installed is redone, not silently reused.
$(BUILD)/flags: FORCE | $(BUILD)/obj/.dirs
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)' | cmp -s - $@ || \
	    echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)' > $@

FORCE:

$(BUILD)/embed: src/tools/embed.c | $(BUILD)/obj/.dirs
	$(CC) -std=c11 -O1 -o $@ $<

$(BUILD)/templates.c: $(BUILD)/embed $(TEMPLATES)
	$(BUILD)/embed $@ $(TEMPLATES)

$(BUILD)/obj/templates.o: $(BUILD)/templates.c src/render/templates.h $(BUILD)/flags | $(BUILD)/obj/.dirs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: src/%.c $(HDRS) $(BUILD)/flags | $(BUILD)/obj/.dirs
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB_A): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--no-undefined -o $@ $^ $(LIBS)
	ln -sf libtracefig.so.$(LIB_VERSION) $(BUILD)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(BUILD)/libtracefig.so

# Libs.private: what a static link of libtracefig.a needs besides it.
# build/tracefig.pc describes the build tree (for uninstalled use); make
# install writes the installed one for PREFIX.
PC_SED = sed -e 's|@LIBS_PRIVATE@|-ldl -lm -pthread|' -e 's|@REQUIRES_PRIVATE@|$(PKGS)|' \
             -e 's|@VERSION@|$(LIB_VERSION)|'
$(LIB_PC): src/tracefig.pc.in Makefile
	$(PC_SED) -e 's|@PREFIX@|$(CURDIR)|' -e 's|@LIBDIR@|$(CURDIR)/$(BUILD)|' \
	    -e 's|@INCLUDEDIR@|$(CURDIR)/src|' src/tracefig.pc.in > $@

$(BIN): $(BUILD)/obj/main.o $(LIB_A)
	$(CC) $(ALL_LDFLAGS) -o $@ $(BUILD)/obj/main.o $(LIB_A) $(LIBS)

$(UNIT): $(UNIT_SRCS) $(LIB_OBJS) $(wildcard tests/unit/*.h) $(HDRS)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(ALL_LDFLAGS) -o $@ $(UNIT_SRCS) $(LIB_OBJS) $(LIBS) \
	    $(UNIT_LIBS_CAIRO) $(UNIT_LIBS_XML)

# --- set-up ------------------------------------------------------------------

deps-build:
	@sh tests/tools/deps.sh build

deps-test:
	@sh tests/tools/deps.sh test

deps-bench:
	@sh tests/tools/deps.sh bench

# --- the README's two commands -------------------------------------------------

demo: deps-build
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory examples

examples: $(BIN)
	@sh examples/render.sh $(BIN)

check: deps-test
	@$(MAKE) --no-print-directory test

test: $(BIN) $(UNIT) $(BUILD)/scan_floor lib
	@sh tests/run-all.sh $(BUILD)

unit: $(UNIT)
	$(UNIT)

golden: $(BIN)
	@sh tests/golden/run.sh $(BIN) --update

golden-check: $(BIN)
	@sh tests/golden/run.sh $(BIN)

parity: $(BIN)
	@sh tests/parity/run.sh $(BIN)

parity-refresh:
	/usr/bin/python3 tests/tools/mkparity.py

# tracefig's scanner alone on a Chrome trace, for make bench (bench-large.sh).
$(BUILD)/scan_floor: tests/tools/scan_floor.c $(LIB_A)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB_A) $(LIBS)

bench: deps-bench
	@$(MAKE) --no-print-directory bench-run

bench-run: $(BIN) lib $(BUILD)/scan_floor
	@sh tests/tools/bench.sh $(BIN)
	@sh tests/tools/bench-cost.sh $(BIN)
	@sh tests/tools/bench-critpath.sh $(BIN)
	@sh tests/tools/bench-large.sh $(BIN)
	@sh tests/tools/bench-nesting.sh $(BIN)
	@sh tests/tools/bench-tex.sh $(BIN)
	@sh tests/tools/bench-multi.sh $(BIN)
	@sh tests/tools/bench-ranks.sh $(BIN)
	@sh tests/tools/bench-nsys.sh $(BIN)
	@sh tests/tools/bench-rocpd.sh $(BIN)
	@sh tests/tools/bench-perfetto.sh $(BIN)
	@sh tests/tools/bench-ftrace.sh $(BIN)
	@sh tests/tools/bench-xplane.sh $(BIN)
	@sh tests/tools/bench-otf2.sh $(BIN)
	@sh tests/tools/bench-python.sh $(BIN)
	@echo "bench: what each run measures, and what it measured before: PERFORMANCE.md"

leakcheck: $(BIN)
	@sh tests/tools/leakcheck.sh $(BIN)

# --- fuzzing (libFuzzer: Debian's clang and libclang-rt-14-dev) ---------------
#   make fuzz FUZZ_SECONDS=60      run every target for that long
#   make fuzz FUZZ_RUNS=10000000   ... or until it made that many executions
#   make fuzz-build                just build them (build-fuzz/fuzz_*)
#   make fuzz FUZZ_FAST=1 ...      UBSan without ASan, -O2, no comparison
#                                  tracing (build-fuzz-fast/): about ten times
#                                  the executions a second, for long
#                                  differential runs (fuzz_stream: 2 000/s
#                                  against 240/s here)
# Corpora: tests/fuzz/corpus/TARGET (committed, minimised) seeded with the
# golden inputs and the examples; new finds go to build-fuzz/corpus/TARGET.
# fuzz_otf2 damages one file of an archive tests/tools/genotf2.py writes
# (python3-otf2) under libFuzzer's -timeout: a read that does not end is a
# find.  make fuzz-otf2-damage: the seeded damages of tests/otf2, many more
# of them (FUZZ_OTF2_DAMAGES=300), each under timeout 20.  make
# fuzz-xplane-damage: the seeded damages of tests/xplane, many more
# (FUZZ_XPLANE_DAMAGES=300; best with SAN=1: build-san/tracefig).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
ifeq ($(FUZZ_FAST),1)
FUZZ_DIR = build-fuzz-fast
FUZZ_FLAGS = -fsanitize=fuzzer-no-link,undefined -fno-sanitize-coverage=trace-cmp \
             -fno-sanitize-recover=all -g -O2
else
FUZZ_DIR = build-fuzz
FUZZ_FLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -g -O1
endif
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OBJS := $(patsubst src/%.c,$(FUZZ_DIR)/obj/%.o,$(LIB_SRCS)) $(FUZZ_DIR)/obj/templates.o
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off $(CPPFLAGS_CAIRO) $(CPPFLAGS_ISAL) \
              $(CPPFLAGS_OTF2) -Isrc \
              -Ibuild $(PKG_CFLAGS) $(FUZZ_FLAGS)

$(FUZZ_DIR)/obj/.dirs: Makefile
	@mkdir -p $(patsubst %,$(FUZZ_DIR)/obj/%,$(SRC_DIRS))
	@touch $@

$(FUZZ_DIR)/obj/%.o: src/%.c $(HDRS) | $(FUZZ_DIR)/obj/.dirs
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/obj/templates.o: build/templates.c | $(FUZZ_DIR)/obj/.dirs
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LIBS)

fuzz-build: $(FUZZ_TARGETS)

FUZZ_OTF2_DAMAGES ?= 300
fuzz-otf2-damage: $(BUILD)/tracefig
	sh tests/fuzz/otf2_damage.sh $(BUILD)/tracefig $(FUZZ_OTF2_DAMAGES)

FUZZ_XPLANE_DAMAGES ?= 300
fuzz-xplane-damage: $(BUILD)/tracefig
	sh tests/fuzz/xplane_damage.sh $(BUILD)/tracefig $(FUZZ_XPLANE_DAMAGES)

fuzz: fuzz-build
	@FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_DIR=$(FUZZ_DIR) FUZZ_FAST=$(FUZZ_FAST) \
	    sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# --- install -----------------------------------------------------------------

# Every man page renders without a warning (groff -ww), as `man -l` shows it.
man-check:
	@for p in $(MANPAGES); do groff -man -ww -z $$p || exit 1; done; echo "man: $(MANPAGES) render"

install: $(BIN) lib
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/tracefig
	for p in $(MANPAGES); do d=$(DESTDIR)$(MANDIR)/man$${p##*.}; \
	    install -d $$d && install -m 0644 $$p $$d/ || exit 1; done
	install -m 0644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libtracefig.a
	install -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libtracefig.so.$(LIB_VERSION)
	ln -sf libtracefig.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libtracefig.so
	install -m 0644 src/tracefig.h $(DESTDIR)$(INCLUDEDIR)/tracefig.h
	$(PC_SED) -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' src/tracefig.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/tracefig.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/tracefig.pc

uninstall:
	for p in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${p##*.}/$${p#man/}; done
	rm -f $(DESTDIR)$(BINDIR)/tracefig $(DESTDIR)$(LIBDIR)/libtracefig.a \
	    $(DESTDIR)$(LIBDIR)/libtracefig.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) \
	    $(DESTDIR)$(LIBDIR)/libtracefig.so $(DESTDIR)$(INCLUDEDIR)/tracefig.h \
	    $(DESTDIR)$(PKGCONFIGDIR)/tracefig.pc

clean:
	rm -rf build build-san build-fuzz build-fuzz-fast
