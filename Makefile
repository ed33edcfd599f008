# Floorman: `make demo` and `make test` are all a new user needs (Python 3.11+ and pip).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEMO_DIR ?= var/demo
PORT   ?= 8501

.PHONY: demo test lint bench install clean e2e dagster-ui cluster-test

e2e: $(STAMP)
	bash scripts/e2e_browser.sh

## cluster-test: PostgreSQL, Redis, the Dagster daemon and Celery workers on loopback; a night with one
## worker SIGKILLed mid-task must equal the single-process night (installs .[cluster] and the apt packages)
cluster-test: $(STAMP)
	bash scripts/cluster_test.sh

## dagster-ui: the Dagster UI on the same project (landing folder var/landing, work var/audit)
dagster-ui: $(STAMP)
	mkdir -p var/dagster && cp dagster.yaml var/dagster/dagster.yaml
	DAGSTER_HOME=$(CURDIR)/var/dagster $(VENV)/bin/dagster instance concurrency set partitions 2  # 2 cores
	DAGSTER_HOME=$(CURDIR)/var/dagster FLOORMAN_LANDING=var/landing FLOORMAN_WORK=var/audit \
		$(VENV)/bin/dagster dev -m pipelines.definitions

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Floorman needs Python 3.11+"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## demo: install, simulate a night beside the real sample, run the nightly audit, serve the dashboard
demo: $(STAMP)
	$(PY) -m pipelines.demo --dir $(DEMO_DIR) --port $(PORT)

## test: install what the tests need (the venv, Debian's chromium for the browser test) and run them all
test: $(STAMP)
	bash scripts/ensure_chromium.sh
	bash scripts/ensure_poppler.sh
	FLOORMAN_E2E=1 $(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy parsers warehouse rules detectors pipelines dashboards simulator
	$(VENV)/bin/dagster definitions validate -m pipelines.definitions  # dg check defs needs dagster-dg-cli

bench: $(STAMP)
	$(PY) bench/ingest.py

clean:
	rm -rf $(VENV) var build *.egg-info .pytest_cache .mypy_cache .ruff_cache
