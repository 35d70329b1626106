# Everything installs into .venv from pinned versions; `make run` and `make test` are all a
# fresh machine with Python 3.11+ needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8501
# `make serve` listens on every interface (HOST=… on its command line narrows it) and shows
# phones this computer's LAN address with a QR code; ADDRESS=… replaces the address found.
ADDRESS ?=
TEST_WORKERS ?= 2
SERVE_HOST := $(if $(filter command line,$(origin HOST)),$(HOST),0.0.0.0)

.PHONY: install run serve test lint bench bench-speed bench-live clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# Both go through serving/start.py (`perudo-coach run`, `perudo-coach serve`): it prints the
# address (and a QR code when phones can reach it) and keeps Streamlit from looking up its
# network and public addresses on the internet.
run: $(STAMP)
	$(BIN)/perudo-coach run --host $(HOST) --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

serve: $(STAMP)
	$(BIN)/perudo-coach serve --host $(SERVE_HOST) --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

lint: $(STAMP)
	$(BIN)/ruff check .

# The tests run in parallel (pytest-xdist), each worker with its own app server and Chromium.
# Two workers were the fastest on a 2-core machine (three or four were not faster); on more
# cores try TEST_WORKERS=auto. TEST_WORKERS=0 runs everything in one process.
test: lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

# Timings need a quiet machine: no xdist workers here.
bench: $(STAMP)
	$(BIN)/python -m pytest tests/benchmarks -n 0 --benchmark-enable --benchmark-only \
		--benchmark-columns=min,median,mean,ops,rounds --benchmark-sort=name

# Speed as felt alone (issue 11): the app's first page and taps beside a bare Streamlit page,
# in headless Chromium; a few minutes, and a table of medians, p95 and ratios at the end.
bench-speed: $(STAMP)
	$(BIN)/python -m pytest tests/benchmarks/test_bench_speed.py -n 0 --benchmark-enable \
		--benchmark-only --benchmark-columns=rounds

# One shared table under load and faults (issue 13): 20 followers in headless Chromium on two
# app processes and a PostgreSQL of its own, then an app process killed and PostgreSQL
# stopped; a few minutes, loopback only, and a table of latencies, CPU, memory and errors.
bench-live: $(STAMP)
	$(BIN)/python -m pytest tests/benchmarks/test_bench_live_table.py -n 0 --benchmark-enable \
		--benchmark-only --benchmark-columns=rounds

clean:
	rm -rf $(VENV) build dist *.egg-info test-output .benchmarks
