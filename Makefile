# Build, test and run the executable rulebook. `make test` runs every test layer but the benchmarks.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

# CI has only Python 3.11; prefer it by name, else whatever python3 is.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HTML := _build/html

# Python's byte-code caches, kept out of the source tree in _build/pycache: every book kernel, test worker and
# pytest subprocess imports the engine, and without the caches each one compiles it (and pytest rewrites
# every test module) again, which environments that set PYTHONDONTWRITEBYTECODE would otherwise force.
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(CURDIR)/_build/pycache

# Timeouts in seconds for each step (a stalled kernel must not hang CI).
UNIT_TIMEOUT ?= 1500
BOOK_TIMEOUT ?= 1200
# The browser layer loads every page cold (test_weight), the pages that draw plots or widgets again
# (test_pages, test_reader, the widget tests), runs seven chapters in the live edition's Pyodide and starts
# JupyterLab (test_lab). It took 1,107 s here beside the Pyodide layer, and went over an earlier 1,200 s
# limit on a slower CI machine, before each page's clean-load checks moved into its one cold load: the
# limit only stops a hang.
BROWSER_TIMEOUT ?= 2400

# BokehJS: the bokeh_static extension (book/_ext) serves it from _static and drops output_notebook()'s
# loader, so the kernel only needs to name script URLs (server mode) rather than inline 3.9 MB per page.
BOOK_ENV := BOKEH_RESOURCES=server WARGAMES_BOOK_BUILD=1
# --all: fresh Sphinx environment, so every chapter is re-executed against the current engine
# (otherwise unchanged chapters keep outputs from an older engine). -W --keep-going: any warning,
# including a failed cell, fails the build after reporting all of them. tools/build_book.py runs
# `jupyter-book build` with these arguments and Sphinx's parallel jobs (BOOK_JOBS=1: one process).
BOOK_JOBS ?= 3
BOOK_CMD := $(BIN)/python tools/build_book.py --jobs $(BOOK_JOBS) -- . --all -W -n --keep-going

.PHONY: venv book lite lite-venv test test-unit test-pyodide test-browser browser-deps lab bench fuzz mutate clean vendor-js

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

# Then the live edition that every chapter's "Try it live" link opens (book/_ext/lite_link.py).
book: $(STAMP)
	rm -rf $(HTML)
	@start=$$(date +%s); \
	$(BOOK_ENV) timeout $(BOOK_TIMEOUT) $(BIN)/python tools/execute_book.py; \
	$(BOOK_ENV) timeout $(BOOK_TIMEOUT) $(BOOK_CMD); \
	echo "book built in $$(( $$(date +%s) - start )) s: $(CURDIR)/$(HTML)/index.html"
	$(MAKE) lite

# The live edition (JupyterLite + Pyodide) in $(HTML)/lite, built by tools/lite.py in its own venv. The first
# build downloads the Pyodide runtime (npm) and pure wheels (PyPI) into .lite-cache/; later builds are offline.
LITE_VENV := .venv-lite
LITE_BIN := $(LITE_VENV)/bin
LITE_STAMP := $(LITE_VENV)/.installed
LITE_TIMEOUT ?= 900
LITE_REQS := jupyterlite-core==0.8.6 jupyterlite-pyodide-kernel==0.8.6 jupyterlab_widgets==3.0.17 \
	'pyodide-lock[wheel]==0.1.2' uv jupyter_server 'jupytext>=1.16,<2' 'setuptools>=68,<81' wheel
lite-venv: $(LITE_STAMP)

$(LITE_STAMP): Makefile
	test -x $(LITE_BIN)/python || $(PYTHON) -m venv $(LITE_VENV)
	$(LITE_BIN)/python -m pip install -q $(LITE_REQS)
	touch $@

# LITE_ARGS='--chapters book/indochina/rule13.md' builds a few chapters only.
LITE_ARGS ?=
lite: $(LITE_STAMP)
	timeout $(LITE_TIMEOUT) $(LITE_BIN)/python tools/lite.py --out $(HTML)/lite $(LITE_ARGS)

# The engine's pure tests under the npm Pyodide in Node (tools/pyodide_tests.py says which files are left out).
# PYODIDE_ARGS='--quick' leaves out the few long tests that `make test` leaves out (see QUICK_LEAVES_OUT there).
# The whole layer took 36 min on a loaded machine (23 min of CPU): the limit only stops a hang.
PYODIDE_TIMEOUT ?= 3000
PYODIDE_ARGS ?=
PYODIDE_CMD := $(LITE_BIN)/python tools/pyodide_tests.py
test-pyodide: $(LITE_STAMP)
	timeout $(PYODIDE_TIMEOUT) $(PYODIDE_CMD) $(PYODIDE_ARGS)

# Both cores (pytest-xdist): UNIT_WORKERS=0 runs the layer in one process. The 25 slowest tests are listed at the
# end, so every run's log shows where the layer's time goes. Each worker collects every test module, so the
# browser layer's modules are not even imported here, and no module does heavy work at import.
UNIT_WORKERS ?= auto
test-unit: $(STAMP)
	timeout $(UNIT_TIMEOUT) $(BIN)/python -m pytest tests -m "not browser" --ignore=tests/browser \
	    -n $(UNIT_WORKERS) --dist loadgroup \
	    --durations=25

# The browser layer drives Debian's chromium (never a downloaded browser). As root, install it (and make
# sure of it) from Debian; otherwise stop at once with one line saying what to install.
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
	    if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then \
	        echo "installing Debian chromium for the browser tests"; \
	        DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	    else \
	        echo "make test: the browser tests need Debian chromium: run 'sudo apt-get install chromium' first"; \
	        exit 1; \
	    fi; \
	fi

test-browser: $(STAMP) browser-deps
	timeout $(BROWSER_TIMEOUT) $(BIN)/python -m pytest tests/browser -m browser

# Runs every step even if an earlier one fails (one CI run reports everything), then fails if any
# failed. The browser layer needs the book, so it runs only after a successful build.
# The Pyodide layer (--quick) runs beside the others at the lowest priority (nice 19), from the start (before
# the main venv is installed), so it takes only the CPU they leave idle, chiefly the core the browser layer does
# not use; its output goes to $(PYODIDE_LOG) and is printed at the end. Its runtime and wheels are fetched
# first, in the foreground, so that `make lite` (in `make book`) never downloads into .lite-cache/ at once.
PYODIDE_LOG := _build/test-pyodide.log
test: $(LITE_STAMP)
	@status=0; pyodide=; \
	mkdir -p $(dir $(PYODIDE_LOG)); \
	if $(PYODIDE_CMD) --fetch-only; then \
	    echo "make test: the Pyodide layer runs beside the others (nice 19), output in $(PYODIDE_LOG)"; \
	    nice -n 19 timeout $(PYODIDE_TIMEOUT) $(PYODIDE_CMD) --quick > $(PYODIDE_LOG) 2>&1 & pyodide=$$!; \
	    trap 'kill $$pyodide 2>/dev/null || true' EXIT; \
	else status=1; fi; \
	$(MAKE) browser-deps || exit 1; \
	$(MAKE) venv || exit 1; \
	$(MAKE) test-unit || status=1; \
	if $(MAKE) book; then $(MAKE) test-browser || status=1; else status=1; fi; \
	if [ -n "$$pyodide" ]; then \
	    pyodide_status=0; wait $$pyodide || pyodide_status=$$?; \
	    echo "make test: the Pyodide layer (exit $$pyodide_status), from $(PYODIDE_LOG):"; cat $(PYODIDE_LOG); \
	    [ $$pyodide_status -eq 0 ] || status=1; \
	fi; \
	if [ $$status -ne 0 ]; then echo "make test: FAILED (see above)"; fi; \
	exit $$status

# Chapters are MyST .md notebooks: jupytext's server extension (installed with jupytext) serves
# them as notebooks, and these venv-level overrides make a double click open them as notebooks.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
# BOKEH_RESOURCES=inline: the kernels' output_notebook() puts BokehJS into the notebook itself (the
# default fetches it from a CDN, and offline the live maps then fail with "Javascript Error: timeout").
# tests/browser/test_lab.py runs this target with the network blocked.
LAB_ARGS ?=
LAB_DIR ?= book
LAB_ENV := BOKEH_RESOURCES=inline
lab: $(STAMP)
	mkdir -p $(dir $(LAB_OVERRIDES))
	echo '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}}}' > $(LAB_OVERRIDES)
	$(LAB_ENV) $(BIN)/jupyter lab --allow-root --no-browser --notebook-dir=$(LAB_DIR) $(LAB_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py --book

# 10,000 random actions a game: crashes, dead ends, invariant breaks, round trips, rules reached in play.
FUZZ_ACTIONS ?= 10000
fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz.py --actions $(FUZZ_ACTIONS)

# One mistake at a time in every FTE fire, opportunity-fire and assault modifier and exception, Citadel melee
# and fire, and NTND politics, combat (19.2 modifiers, desertion, results), AA fire and bombing, each run
# against the tests in a temporary copy; lists every mistake the tests miss. Not part of `make test`.
MUTATE_WORKERS ?= 2
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py --workers $(MUTATE_WORKERS)

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# Maintainer-only: re-vendor the browser JS in book/_static from npm. The build never needs npm.
HTML_MANAGER := 1.0.15
REQUIREJS := 2.3.8
MATHJAX := 3.2.2
vendor-js:
	tmp=$$(mktemp -d); static=$(CURDIR)/book/_static; \
	(cd $$tmp && npm pack --silent @jupyter-widgets/html-manager@$(HTML_MANAGER) \
	    requirejs@$(REQUIREJS) mathjax@$(MATHJAX) >/dev/null); \
	for f in $$tmp/*.tgz; do mkdir -p $${f%.tgz} && tar xzf $$f -C $${f%.tgz}; done; \
	hm=$$tmp/jupyter-widgets-html-manager-$(HTML_MANAGER)/package/dist; \
	mj=$$tmp/mathjax-$(MATHJAX)/package; \
	cp $$tmp/requirejs-$(REQUIREJS)/package/require.js $$static/widgets/; \
	cp $$hm/embed-amd.js $$hm/*.woff2 $$hm/*.woff $$static/widgets/; \
	cp $$hm/embed.js.LICENSE.txt $$static/widgets/embed-amd.js.LICENSE.txt; \
	rm -rf $$static/mathjax && mkdir -p $$static/mathjax/output/chtml/fonts $$static/mathjax/input/tex; \
	cp $$mj/LICENSE $$mj/es5/tex-mml-chtml.js $$static/mathjax/; \
	cp -r $$mj/es5/output/chtml/fonts/woff-v2 $$static/mathjax/output/chtml/fonts/; \
	cp -r $$mj/es5/input/tex/extensions $$static/mathjax/input/tex/; \
	rm -rf $$tmp
