# Two commands for a newcomer: `make serve` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# Locked installs (docs/development.md, "Dependencies"): requirements/*.txt pin every package
# by version and hash; pyproject.toml keeps the ranges. `make lock` after editing pyproject.toml.
LOCK := $(UV) pip compile --quiet --universal --python-version 3.11 --generate-hashes
RUNTIME_IN := pyproject.toml requirements/build.in
DEV_IN := $(RUNTIME_IN) requirements/tools.in --extra dev

# pytest-xdist workers for `make test` and `make soak` (JOBS=0 runs in-process). A module's
# tests stay on one worker (loadscope), so its servers, browsers and the runtime-only venv are
# made once per run; the modules go out largest first, in the order tests/conftest.py sets
# (--no-loadscope-reorder: xdist would put the modules with the most tests first, leaving the
# few long ones for the end). One worker more than CPUs: many tests wait on servers, browsers
# and clocks, and the extra worker uses the CPU they leave idle.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 1 )))
XDIST = -n $(JOBS) $(if $(filter 0,$(JOBS)),,--dist loadscope --no-loadscope-reorder)
# pytest's "no tests collected" (exit 5) counts as a failure. pytest keeps the test modules
# it has rewritten for its assertions only where bytecode may be written: without that cache
# each worker rewrites them all again (about 3 of the 6 CPU seconds a worker's collection costs).
PYTEST = $(PY) -m compileall -q -j0 server tests migrations >/dev/null; \
	rc=0; env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest $(XDIST) $(1) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests - treating as failure"; exit 1; fi; \
	exit $$rc

.PHONY: serve test test-cpu test-fast soak bench lint format lint-js format-js migrate clean lock upgrade

# The browser client's linter and formatter (ESLint, Prettier): npm dev tools, pinned in
# package-lock.json and installed into node_modules/ only for `make lint` and `make format`.
# The served modules are the files as written: nothing is built, and the runtime image has no
# Node. `npm ci` again only when the lock file changes.
NODE_STAMP := node_modules/.installed-stamp
JS_SOURCES := web/static/js web/static/sw.js tests/web/*.js eslint.config.js
JS_FILES := $(JS_SOURCES) .prettierrc.json package.json

$(NODE_STAMP): package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# The installers (pip, uv) by hash into .venv: nothing but python3 and make is needed.
$(UV): requirements/tools.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes -r requirements/tools.txt
	touch $(UV)

# Exactly the locked set (sync removes anything else), then the project itself, editable.
# Bytecode is compiled here: where PYTHONDONTWRITEBYTECODE is set (some CI machines set it)
# every Python process would otherwise compile all it imports again, about 3 CPU seconds
# for the app alone, and the suite starts well over a hundred of them.
$(STAMP): $(UV) requirements/dev.txt pyproject.toml setup.py
	$(UV) pip sync -q --compile-bytecode --python $(PY) requirements/dev.txt
	$(UV) pip install -q --python $(PY) --no-deps --no-build-isolation -e .
	touch $(STAMP)

## lock: pin what pyproject.toml asks for, keeping current versions where they still fit
lock: $(UV)
	$(LOCK) $(RUNTIME_IN) -o requirements/runtime.txt
	$(LOCK) $(DEV_IN) -o requirements/dev.txt
	$(LOCK) requirements/tools.in -o requirements/tools.txt

## upgrade: the newest releases pyproject.toml allows, into the lock files
upgrade: $(UV)
	$(LOCK) --upgrade $(RUNTIME_IN) -o requirements/runtime.txt
	$(LOCK) --upgrade $(DEV_IN) -o requirements/dev.txt
	$(LOCK) --upgrade requirements/tools.in -o requirements/tools.txt

## serve: install into .venv, migrate the database (SQLite file under ./data by default), serve
serve: $(STAMP)
	$(VENV)/bin/guildhall migrate
	$(VENV)/bin/guildhall serve --host $(HOST) --port $(PORT)

migrate: $(STAMP)
	$(VENV)/bin/guildhall migrate

## test: the whole suite but the soak tier, in parallel (JOBS workers)
test: $(STAMP)
	@$(call PYTEST,$(PYTEST_ARGS))

## soak: the soak tier only: thousands of new random games (GUILDHALL_SOAK_SCALE multiplies)
soak: $(STAMP)
	@$(call PYTEST,-m soak $(PYTEST_ARGS))

## test-cpu: the whole suite, then the CPU seconds each file and test cost (tests/support/cpu_report.py)
test-cpu: $(STAMP)
	@$(call PYTEST,-p tests.support.cpu_report $(PYTEST_ARGS))

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow and not browser and not postgres" -q

## bench: engine, view/patch and bot figures (printed, never asserted)
bench: $(STAMP)
	$(PY) -m server.devtools.bench

lint: $(STAMP) lint-js
	$(VENV)/bin/ruff check server tests migrations
	$(VENV)/bin/ruff format --check server tests migrations
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy tests
	$(VENV)/bin/python -m tests.import_layers
	$(VENV)/bin/python -m tests.private_names

format: $(STAMP) format-js
	$(VENV)/bin/ruff format server tests migrations
	$(VENV)/bin/ruff check --fix server tests migrations

lint-js: $(NODE_STAMP)
	node_modules/.bin/eslint --max-warnings 0 $(JS_SOURCES)
	node_modules/.bin/prettier --check $(JS_FILES)

format-js: $(NODE_STAMP)
	node_modules/.bin/prettier --write --log-level warn $(JS_FILES)
	node_modules/.bin/eslint --fix $(JS_SOURCES)

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
