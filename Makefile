# Everything installs into .venv from requirements/lock.txt (every package pinned, every file
# checked against its hash); `make run` and `make test` are all a fresh machine with Python
# 3.11+ needs. The top-level pins live in pyproject.toml; `make lock` rewrites the lock from them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements/lock.txt
# uv writes the lock (`make lock` only: installing needs pip alone), from a venv of its own.
UV_VERSION := 0.13.9
LOCK_VENV := $(VENV)/lock-tools
# `make lock LOCK_FLAGS=--upgrade` also moves the unpinned (transitive) packages to their
# newest versions; without it they stay as locked unless a pin needs another.
LOCK_FLAGS ?=
HOST ?= 127.0.0.1
PORT ?= 8501
# `make serve` listens on every interface (HOST=… on its command line narrows it) and shows
# phones this computer's LAN address with a QR code; ADDRESS=… replaces the address found.
ADDRESS ?=
TEST_WORKERS ?= 2
SERVE_HOST := $(if $(filter command line,$(origin HOST)),$(HOST),0.0.0.0)

.PHONY: install lock run serve test lint bench bench-speed bench-live clean

install: $(STAMP)

# The lock first (pip, setuptools and the `test` extra included), hashes required; then the
# project itself, editable, without dependencies and built with the lock's setuptools (no
# build isolation), so nothing is fetched that the lock does not name.
$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps \
		--no-build-isolation -e .
	touch $(STAMP)

# One lock for Python 3.11+ on Linux, macOS and Windows (x86_64 and arm64: --universal puts a
# marker on a package one platform alone needs, and every file PyPI has for each version is
# hashed). Run it after changing a pin in pyproject.toml or requirements/tools.in.
lock:
	test -x $(LOCK_VENV)/bin/python || $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(LOCK_VENV)/bin/uv pip compile --quiet pyproject.toml requirements/tools.in --extra test \
		--universal --python-version 3.11 --generate-hashes --custom-compile-command 'make lock' \
		$(LOCK_FLAGS) -o $(LOCK)

# Both go through serving/start.py (`perudo-coach run`, `perudo-coach serve`): it prints the
# address (and a QR code when phones can reach it) and keeps Streamlit from looking up its
# network and public addresses on the internet.
run: $(STAMP)
	$(BIN)/perudo-coach run --host $(HOST) --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

serve: $(STAMP)
	$(BIN)/perudo-coach serve --host $(SERVE_HOST) --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

# mypy reads its files and settings from pyproject.toml ([tool.mypy]): every package, the pages
# and the entry script.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

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
