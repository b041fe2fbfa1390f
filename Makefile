# The two set-up commands of the README: `make run` and `make test`.
# Both create .venv on first use (and whenever pyproject.toml changes) and install the project.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run warmup test lint kernels bench mutants screenshots clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# `ludoteca serve` answers at once; each game is prepared (numba compiles its kernels, one process
# per game, on every core) and opens as soon as its own kernels are ready: about 2 minutes of CPU
# the first time, a second or two once they are cached.
run: $(STAMP)
	$(BIN)/ludoteca serve $(SERVE_ARGS)

warmup: $(STAMP)
	$(BIN)/ludoteca warmup

test: $(STAMP) lint
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests tools examples
	$(BIN)/ruff format --check src tests tools examples
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# Every game's kernel contract, written from one template over the game's kernels/rules.py
# (docs/kernels.md); a test fails while a generated file differs from what this writes.
kernels: $(STAMP)
	$(BIN)/python -m ludoteca.core.kernel_template

# BENCH_ARGS="--json", "salta --seconds 10", "--cold": see docs/bench.md.
bench: $(STAMP)
	$(BIN)/ludoteca bench $(BENCH_ARGS)

# Mutation testing (Cosmic Ray) of the rules kernels and the web server, on demand: hours for
# every mutant on two cores. MUTANTS_ARGS="--targets steppin_stones --sample 20" measures a
# seeded sample (docs/testing.md). Works in a copy under .mutants/.
mutants: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutants]'
	$(BIN)/python tools/mutants.py $(MUTANTS_ARGS)

# PNGs of each game's board page for the README (needs Chromium at /usr/bin/chromium).
screenshots: $(STAMP)
	$(BIN)/python -m tests.web.screenshots docs/images

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .mutants
