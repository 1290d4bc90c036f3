# Two commands for a newcomer: `make serve` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test test-fast bench lint format migrate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

## serve: install into .venv, migrate the database (SQLite file under ./data by default), serve
serve: $(STAMP)
	$(VENV)/bin/guildhall migrate
	$(VENV)/bin/guildhall serve --host $(HOST) --port $(PORT)

migrate: $(STAMP)
	$(VENV)/bin/guildhall migrate

## test: the whole suite; pytest's "no tests collected" (exit 5) counts as a failure
test: $(STAMP)
	@$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests - treating as failure"; exit 1; fi; \
	exit $$rc

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow and not browser and not postgres" -q

## bench: engine, view/patch and bot figures (printed, never asserted)
bench: $(STAMP)
	$(PY) -m server.bench

lint: $(STAMP)
	$(VENV)/bin/ruff check server tests migrations
	$(VENV)/bin/ruff format --check server tests migrations
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy tests

format: $(STAMP)
	$(VENV)/bin/ruff format server tests migrations
	$(VENV)/bin/ruff check --fix server tests migrations

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
