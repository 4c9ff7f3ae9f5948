# The two commands a newcomer needs: `make run` and `make test` (see README.md).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Tests run against the real services on loopback; override these to point elsewhere.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/dune
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
# The suite runs in this many processes, each with its own test database, Redis database and var/.
TEST_PROCESSES ?= 2

.PHONY: install run venue test test-fast check lint typecheck chromium benchmarks clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) is needed (set PYTHON=/path/to/python3.11)"; exit 1; }
	[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

# Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own.
chromium:
	@[ -x /usr/bin/chromium ] || { echo "Installing Debian's chromium for the browser tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

# Embedded default: SQLite and a file-system Celery broker; web, worker and beat together.
run: install
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py load_demo
	DEBUG=$${DEBUG:-true} bin/run-embedded

# Venue mode: serve the event to the venue's network from this laptop (README, "The venue kit").
venue: install
	bin/venue

test: install chromium
	@DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
	  $(BIN)/python -m config.check_services
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
	  $(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist worksteal

# Everything but the browser tests, for a quick loop while working.
test-fast: install
	$(BIN)/python -m pytest -m "not e2e" -q

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy dune

check: lint typecheck test

benchmarks: install
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf var db.sqlite3 .pytest_cache .mypy_cache artifacts
