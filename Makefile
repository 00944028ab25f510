# Build, test and run the executable rulebook. `make test` runs every test layer but the benchmarks.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HTML := _build/html

# Timeouts in seconds for each step (a stalled kernel must not hang CI).
UNIT_TIMEOUT ?= 900
BOOK_TIMEOUT ?= 1200
BROWSER_TIMEOUT ?= 600

# BokehJS is inlined into the pages so the book works offline.
BOOK_ENV := BOKEH_RESOURCES=inline PYDEVD_DISABLE_FILE_VALIDATION=1
BOOK_CMD := $(BIN)/jupyter-book build . -W -n --keep-going

.PHONY: venv book test test-unit test-browser lab bench clean vendor-js

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

book: $(STAMP)
	@start=$$(date +%s); \
	$(BOOK_ENV) timeout $(BOOK_TIMEOUT) $(BOOK_CMD); \
	echo "book built in $$(( $$(date +%s) - start )) s: $(CURDIR)/$(HTML)/index.html"

test-unit: $(STAMP)
	timeout $(UNIT_TIMEOUT) $(BIN)/python -m pytest tests -m "not browser"

test-browser: $(STAMP)
	timeout $(BROWSER_TIMEOUT) $(BIN)/python -m pytest tests/browser -m browser

# Sequential on purpose: the browser layer tests the book that the build step just made.
test: $(STAMP)
	$(MAKE) test-unit
	$(MAKE) book
	$(MAKE) test-browser

lab: $(STAMP)
	$(BIN)/jupyter lab --allow-root --no-browser --notebook-dir=book

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# Maintainer-only: refresh the vendored widget JS (needs npm). Not used by the build.
WIDGETS_JS := book/_static/widgets
vendor-js:
	tmp=$$(mktemp -d); cd $$tmp && npm pack @jupyter-widgets/html-manager@1.0.15 requirejs@2.3.8 >/dev/null \
	  && for f in *.tgz; do mkdir -p $${f%.tgz} && tar xzf $$f -C $${f%.tgz}; done; \
	cp $$tmp/requirejs-2.3.8/package/require.js $(WIDGETS_JS)/; \
	cp $$tmp/jupyter-widgets-html-manager-1.0.15/package/dist/embed-amd.js $(WIDGETS_JS)/; \
	cp $$tmp/jupyter-widgets-html-manager-1.0.15/package/dist/embed.js.LICENSE.txt $(WIDGETS_JS)/embed-amd.js.LICENSE.txt; \
	cp $$tmp/jupyter-widgets-html-manager-1.0.15/package/dist/*.woff2 $$tmp/jupyter-widgets-html-manager-1.0.15/package/dist/*.woff $(WIDGETS_JS)/; \
	rm -rf $$tmp
