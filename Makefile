# The two commands a newcomer needs: `make run` and `make test` (see README.md).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Tests run against the real services on loopback; override these to point elsewhere.
# They keep Python's compiled files (and pytest's rewritten tests) even where the environment
# says PYTHONDONTWRITEBYTECODE: each test process would otherwise compile every module again.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/dune
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
# The suite runs in this many processes, each with its own test database, Redis database and var/.
TEST_PROCESSES ?= 2

.PHONY: help install run venue test test-fast check lint typecheck chromium gettext messages benchmarks clean
.DEFAULT_GOAL := help

## help: list these targets (a bare `make` does the same)
help:
	@echo "Targets (README.md says more):"
	@sed -n 's/^## //p' $(MAKEFILE_LIST) | sed 's/^\([a-z-]*\): /  make \1\t/' | expand -t 20

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) is needed (set PYTHON=/path/to/python3.11)"; exit 1; }
	@echo "Setting up the environment in $(VENV) (a first run takes a few minutes)"
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python bin/install-progress $(BIN)/python -m pip install -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

## install: make the environment in .venv (done by the others when pyproject.toml changes) and compile the catalogues
# The catalogues (locale/*/LC_MESSAGES/*.po) compile to .mo files at install: built, never committed.
install: $(STAMP) gettext
	@for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check-format -o "$${po%.po}.mo" "$$po" || exit 1; done

# makemessages and compilemessages need GNU gettext (msgfmt, xgettext) from the system packages.
## gettext: install GNU gettext (msgfmt) when missing, for the translation catalogues
gettext:
	@command -v msgfmt >/dev/null 2>&1 || { echo "Installing GNU gettext for the translation catalogues"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq gettext; }

# Refresh the catalogues from the marked strings (then translate the new entries and `make install`).
## messages: refresh locale/{es,fr,de} from the marked strings (pages and Python, and static/js)
messages: $(STAMP) gettext
	for l in es fr de; do \
	  $(BIN)/python manage.py makemessages -l $$l --ignore=.venv --ignore=tests --no-obsolete && \
	  $(BIN)/python manage.py makemessages -l $$l -d djangojs --ignore=.venv --ignore=tests --ignore=templates --ignore=static/vendor --no-obsolete; \
	done

# Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own.
## chromium: install Debian's Chromium for the browser tests
chromium:
	@[ -x /usr/bin/chromium ] || { echo "Installing Debian's chromium for the browser tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

# Embedded default: SQLite and a file-system Celery broker; web, worker and beat together.
# The demo's logins are kept in var/demo-logins.txt and printed last, once the servers answer.
## run: the platform with its demo tournament on http://127.0.0.1:$PORT/ (PORT=8000 unless set)
run: install
	@echo "Preparing the database"
	@DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput -v 0
	@echo "Loading the demo tournament"
	@DEBUG=$${DEBUG:-true} $(BIN)/python manage.py load_demo --no-logins
	@DEBUG=$${DEBUG:-true} bin/run-embedded

# Venue mode: serve the event to the venue's network from this laptop (README, "The venue kit").
## venue: serve the event to the venue's network from this laptop
venue: install
	bin/venue

## test: the whole suite, browser tests included, on PostgreSQL and Redis (slowest 15 listed at the end)
test: install chromium
	@DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
	  $(BIN)/python -m config.check_services
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
	  PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist worksteal --durations=15

# Everything but the browser tests, for a quick loop while working.
## test-fast: everything but the browser tests
test-fast: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m "not e2e" -q

## lint: ruff
lint: install
	$(BIN)/ruff check .

## typecheck: mypy on the pure cores (dune/)
typecheck: install
	$(BIN)/mypy dune

## check: lint, typecheck and test
check: lint typecheck test

## benchmarks: run every benchmark under benchmarks/
benchmarks: install
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

## clean: remove var/, the SQLite database and caches (keeps .venv)
clean:
	rm -rf var db.sqlite3 .pytest_cache .mypy_cache artifacts
