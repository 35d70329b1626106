# Everything installs into .venv from pinned versions; `make run` and `make test` are all a
# fresh machine with Python 3.11+ needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8501

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/streamlit run streamlit_app.py --server.address $(HOST) --server.port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m pytest tests/benchmarks --benchmark-enable --benchmark-only \
		--benchmark-columns=min,median,mean,ops,rounds --benchmark-sort=name

clean:
	rm -rf $(VENV) build *.egg-info test-output .benchmarks
