# The two commands: `make run` (service on embedded defaults) and `make test` (whole suite).
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
# pyenv reads .python-version (3.12); otherwise any python3.12+/3.13 on PATH.
PYTHON ?= $(shell (command -v pyenv >/dev/null && pyenv which python 2>/dev/null) \
	|| command -v python3.12 || command -v python3.13 || command -v python3)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help install run worker test test-swiss-full lint unit bench bench-swiss-big bench-bots bench-recompute bench-celery bench-links bench-signup bench-notices \
	services migrate demo clean reliability bench-load bench-prizes bench-print bench-reports messages check-i18n translations

help:
	@echo "make run    - install, migrate, load the demo, start web + Celery worker and beat"
	@echo "make test   - lint, then the whole test suite on PostgreSQL (+ Redis)"
	@echo "make lint   - ruff and mypy"
	@echo "make check-i18n - unmarked user-facing texts, incomplete Russian catalogues"
	@echo "make test-swiss-full - Swiss pairings against bbpPairings on the full corpus"
	@echo "make unit   - the fast tests that need no database"
	@echo "make bench  - engine, pairing, standings and rating benchmarks (BBP=path: Swiss vs bbpPairings)"
	@echo "make reliability - security and fault tests alone (also part of make test)"
	@echo "make bench-load  - wrk against gunicorn on loopback (needs wrk)"
	@echo "make bench-notices - a 30-player release e-mailed through a real SMTP server (eager and a worker)"
	@echo "make bench-print - the print pack of a 200-player, 9-round event (PostgreSQL)"
	@echo "make bench-reports  - 200 phones polling while 60 reports a minute arrive (gunicorn, PostgreSQL)"

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 12), f"Python 3.12+ needed, found {sys.version.split()[0]} at {sys.executable}"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/.installed

# The compiled Russian catalogues (.mo) from the .po files. The .mo files are kept in git too,
# so a machine without GNU gettext (msgfmt) still runs in Russian.
translations: install
	@if command -v msgfmt >/dev/null; then \
		DEBUG=true $(BIN)/python manage.py compilemessages -v 0 --ignore='.venv/*' --ignore='var/*'; \
	else echo "msgfmt not found: using the committed .mo catalogues"; fi

.env:
	@echo "# Local development settings written by 'make run'; see docs/operations.md for all settings." > $@
	@echo "DEBUG=true" >> $@
	@echo "SECRET_KEY=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))')" >> $@

migrate: install .env translations
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	@$(BIN)/python manage.py ensure_admin >/dev/null
	$(BIN)/python manage.py load_demo

run: demo
	@BIN=$(BIN) HOST=$(HOST) PORT=$(PORT) bash scripts/run.sh

# one worker consuming every queue (no -Q); the deploy files split them (docs/workers.md)
worker: install .env
	REMAP_SIGTERM=SIGQUIT $(BIN)/celery -A config worker --loglevel=INFO

services:
	@bash scripts/ensure_services.sh

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy .

unit: install translations
	$(BIN)/pytest -q -p no:cacheprovider tests/unit

# The suite on TEST_WORKERS pytest-xdist workers, each with its own test database; the sets
# that share a broker or a browser stay on one worker each (tests/conftest.py, ONE_WORKER).
# More workers than cores: most tests wait on PostgreSQL, subprocesses or a browser.
TEST_WORKERS ?= 4
test: install translations services lint check-i18n
	$(BIN)/pytest -q -p no:cacheprovider -n $(TEST_WORKERS)

# Every user-facing text marked for translation and the Russian catalogues complete
# (scripts/check_i18n.py --help; needs GNU gettext).
check-i18n: install
	$(BIN)/python scripts/check_i18n.py

# Swiss pairing against bbpPairings on the full corpus (thousands of rounds, several minutes;
# the default suite runs the smaller gen and sim sets and does not collect this one), then
# every gen and sim round imported and paired through the services (PostgreSQL; long).
test-swiss-full: install services
	SWISS_FULL=1 $(BIN)/pytest -q -p no:cacheprovider -n $(TEST_WORKERS) -m swiss_full \
		tests/unit/pairing/swiss/test_corpus.py tests/integration/tournaments/test_swiss_service_corpus.py

# Login guard, object permissions, bandit, schemathesis, concurrency, PostgreSQL and Redis
# restarts (about three minutes; tests/reliability is also part of make test).
reliability: install services
	$(BIN)/pytest -q -p no:cacheprovider tests/reliability

# Fast benchmarks (about a minute); the bots' strength tables, the ratings recompute on
# PostgreSQL and the Celery throughput run apart (bench-bots, bench-recompute, bench-celery).
BENCH_FAST := engines swiss standings ratings protocol clock
bench: install
	@for name in $(BENCH_FAST); do $(BIN)/python bench/bench_$$name.py || exit 1; done

# Swiss pairing at 1,000 entrants (minutes); BBP=/path/to/bbpPairings.exe compares with it.
bench-swiss-big: install
	$(BIN)/python bench/bench_swiss.py --only-big

bench-bots: install
	$(BIN)/python bench/bench_bots.py

# Prize lists (tournaments.prizes) at 1,000 players, ten groups, every tie rule.
bench-prizes: install
	$(BIN)/python bench/bench_prizes.py

bench-recompute: install services
	$(BIN)/python bench/bench_recompute_ratings.py

bench-celery: install services
	$(BIN)/python bench/bench_celery.py

# Public sign-up: queries and time per sign-up (needs a migrated scratch DATABASE_URL).
bench-signup: install services
	$(BIN)/python bench/bench_signup.py

bench-notices: install services
	$(BIN)/python bench/bench_notices.py

bench-load: install services
	$(BIN)/python bench/bench_load.py

# A player's phone: my page, its polled part, link lookups, the link cards (issue 35).
bench-links: install services
	DJANGO_SETTINGS_MODULE=config.settings_test $(BIN)/python bench/bench_player_links.py

# Players' phones: 200 polling every 5 s while 60 reports a minute arrive (gunicorn, 2 workers).
bench-reports: install services
	$(BIN)/python bench/bench_reports.py

# The print pack: every PDF of a 200-player, 9-round event (PostgreSQL; aim under 5 s).
bench-print: install services
	$(BIN)/python bench/bench_print.py

# Translation catalogues (Russian): makemessages sends each app's texts to its own
# <app>/locale and the rest (templates/, config/, core/) to locale/; N_ marks texts of the pure
# cores. Needs GNU gettext (msgfmt, xgettext).
I18N_APPS := games tournaments matches analysis ratings players botruns pages playerlinks signup reporting phoneclock printpack notices leagues
messages: install
	@mkdir -p locale $(addsuffix /locale,$(I18N_APPS))
	DEBUG=true $(BIN)/python manage.py makemessages -l ru --no-obsolete -v 0 \
		--ignore='tests/*' --ignore='bench/*' --ignore='var/*' --ignore='examples/*' \
		--ignore='deploy/*' --ignore='docs/*' --ignore='*/migrations/*' --ignore='scripts/*'
	DEBUG=true $(BIN)/python manage.py compilemessages -v 0 --ignore='.venv/*'

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
