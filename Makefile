# Courtier: `make run` serves the app, `make test` runs the whole suite.
# Both create .venv on first use and reuse it after.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench load system-deps clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/flask --app companion run --host 127.0.0.1 --port 5000

test: $(STAMP) system-deps
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/run.py

load: $(STAMP)
	$(BIN)/python bench/load.py

system-deps:
	@sh scripts/system-deps.sh

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
