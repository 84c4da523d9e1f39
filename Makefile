# relatex: `make demo` runs the main job on the bundled example; `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DEPS   := $(VENV)/.deps-installed
DEMO_KB := .cache/demo-kb

.PHONY: all install demo test lint typecheck unit vscode bench test-editors clean

all: test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Dependencies are reinstalled only when pyproject.toml changes; the package itself is
# re-linked every time (strict editable mode, so that mypy and ruff see the real modules).
$(DEPS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,bench]' --config-settings editable_mode=strict
	touch $(DEPS)

install: $(DEPS)
	$(BIN)/python -m pip install -q --no-deps -e . --config-settings editable_mode=strict

demo: install
	$(BIN)/relatex check --model examples/demo/main.tex
	$(BIN)/relatex index examples/demo/library.bib --data-dir $(DEMO_KB)
	$(BIN)/relatex check examples/demo/main.tex --claims --data-dir $(DEMO_KB)
	$(BIN)/relatex generate examples/demo/main.tex --data-dir $(DEMO_KB)

lint: install
	$(BIN)/ruff check config server analysis retrieval writing workflows tests bench

typecheck: install
	$(BIN)/mypy -p relatex.config -p relatex.analysis -p relatex.retrieval -p relatex.writing -p relatex.workflows -p relatex.server

unit: install
	$(BIN)/python -m pytest -q -p no:cacheprovider

# The VS Code extension: install, lint, type-check, bundle, unit-test and package it.
vscode:
	cd editors/vscode && npm ci --no-audit --no-fund && npm run lint && npm run compile && npm test && npm run package

test: lint typecheck vscode unit

bench: install
	$(BIN)/python -m pip install -q -e '.[bench]' --config-settings editable_mode=strict
	@echo "Benchmarks: see bench/README.md"

test-editors: install
	bash tests/editors/run_all.sh

clean:
	rm -rf $(VENV) build .cache .mypy_cache .ruff_cache .pytest_cache
