# ember — every target sets itself up from nothing: a virtualenv in .venv with what it needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-gpu bench lint setup clean doctest-pandas coverage-page fuzz

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[all,test]"
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ember demo

test: $(STAMP)
	$(PY) -m pytest tests --backend cpu

# On a GPU host: runs the whole suite with columns on the device.
test-gpu: $(STAMP)
	$(PY) -m pytest tests --backend gpu

bench: $(STAMP)
	$(VENV)/bin/ember bench --json bench-out/results.json

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

clean:
	rm -rf $(VENV) build dist src/*.egg-info

# pandas' own docstring examples run with ember and with pandas; the report lists where ember differs.
doctest-pandas: $(STAMP)
	$(PY) scripts/pandas_docstrings.py --out build/doctest-pandas.json

# docs/pandas-coverage.md from the docstring report: every pandas member, supported / partial / not.
coverage-page: doctest-pandas
	$(PY) scripts/pandas_coverage.py build/doctest-pandas.json --out docs/pandas-coverage.md

# Differential fuzzing against pandas: EMBER_FUZZ_EXAMPLES random chains of operations (seed
# EMBER_FUZZ_SEED, EMBER_FUZZ_JOBS processes); prints each distinct divergence with a repro.
fuzz: $(STAMP)
	$(PY) tests/differential/run.py --chains $${EMBER_FUZZ_EXAMPLES:-100000} --seed $${EMBER_FUZZ_SEED:-0} --jobs $${EMBER_FUZZ_JOBS:-1}
