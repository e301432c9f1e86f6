# The two commands a newcomer needs: `make dev` and `make test`. Both install what they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: dev test lint unit property bench balance scenarios clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## dev: a full bot game printed turn by turn (ARGS="--players 9 --seed 4")
dev: $(STAMP)
	$(BIN)/python -m engine.demo $(ARGS)

## test: lint, then every test with engine coverage >= 90 %
test: lint
	$(BIN)/python -m pytest --cov=engine --cov-report=term --cov-fail-under=90

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## unit: the fast tests only (no random-game properties)
unit: $(STAMP)
	$(BIN)/python -m pytest --ignore=tests/test_properties.py

## property: the random-game properties alone (PROPERTY_GAMES=520 by default)
property: $(STAMP)
	$(BIN)/python -m pytest tests/test_properties.py

bench: $(STAMP)
	$(BIN)/python bench/engine.py

## balance: the RULES §11 measurement behind docs/balance.md (about 15 minutes on 2 cores)
balance: $(STAMP)
	$(BIN)/python -m engine.simulate --players 4-12 --games 2000 --workers 2

## scenarios: rewrite tests/scenarios/*.json from tests/scenarios/generate.py
scenarios: $(STAMP)
	$(BIN)/python -m tests.scenarios.generate

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .coverage .hypothesis
