# Every target does its own set-up on a fresh Debian machine: a venv in .venv, the project
# installed into it, and (for tests) Debian's mosquitto, chromium and node when running as root,
# and MicroPython's WebAssembly port from npm (tests/firmware/mpy) for the firmware tests.
SHELL := /bin/bash
# Python writes and reuses its bytecode here, whatever the machine's environment says: without it
# every test worker and every served table compiles the project (and the tests' rewritten
# asserts) from source again
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# property tests draw their examples from a fixed seed: a run is repeatable, CI never flickers
HYPOTHESIS_SEED ?= 0
# the suite runs in parallel (pytest-xdist), two workers per core: most tests wait on servers,
# browsers and brokers, so one worker per core left the cores half idle. A test file stays on one
# worker (tests/conftest.py) so its module fixtures start once. PYTEST_WORKERS=0 runs it serially.
PYTEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc) )))

.PHONY: run test lint typecheck pytest system-deps node-deps bench clean
MPY_DIR := tests/firmware/mpy

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.run-deps: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev-deps: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(VENV)/.run-deps

run: $(VENV)/.run-deps
	$(BIN)/herald serve --default-game middle-ages

system-deps:
	@bash scripts/system-deps.sh

# npm ci writes node_modules/.package-lock.json: present once the package is installed
$(MPY_DIR)/node_modules/.package-lock.json: $(MPY_DIR)/package-lock.json | system-deps
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix $(MPY_DIR) --no-audit --no-fund --loglevel=error \
		|| echo "warning: npm could not install $(MPY_DIR)'s packages" >&2; \
	else echo "warning: npm is missing (scripts/system-deps.sh installs it as root)" >&2; fi

node-deps: $(MPY_DIR)/node_modules/.package-lock.json

lint: $(VENV)/.dev-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev-deps
	$(BIN)/mypy

# --no-loadscope-reorder: the groups go out in tests/conftest.py's order (the long ones first),
# not by their number of tests
PYTEST_FLAGS = -q -n $(PYTEST_WORKERS) --dist loadgroup --no-loadscope-reorder --durations=25 --hypothesis-seed=$(HYPOTHESIS_SEED)

pytest: $(VENV)/.dev-deps system-deps node-deps
	@set +e; $(BIN)/python -m pytest $(PYTEST_FLAGS) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; \
	exit $$rc

# lint, then the type check beside the tests (scripts/test.sh): the same checks as
# `make lint typecheck pytest`, in less time
test: $(VENV)/.dev-deps system-deps node-deps
	@BIN=$(BIN) bash scripts/test.sh $(PYTEST_FLAGS) $(PYTEST_ARGS)

bench: $(VENV)/.run-deps
	$(BIN)/python bench/engine.py --game middle-ages
	$(BIN)/python bench/fanout.py --game middle-ages

clean:
	rm -rf $(VENV) build *.egg-info $(MPY_DIR)/node_modules
