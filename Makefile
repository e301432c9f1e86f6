# The two commands a newcomer needs: `make dev` and `make test`. Both install what they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: dev demo test lint unit property bench balance scenarios screens package package-code clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## dev: the game on this machine for phones on the same Wi-Fi (ARGS="--bots 5 --port 8080")
dev: $(STAMP)
	$(BIN)/python -m local_stack $(ARGS)

## demo: a full bot game printed turn by turn (ARGS="--players 9 --seed 4")
demo: $(STAMP)
	$(BIN)/python -m engine.demo $(ARGS)

## test: lint, then every test with engine coverage >= 90 %
test: lint
	$(BIN)/python -m pytest --cov=engine --cov-report=term --cov-fail-under=90 --durations=8

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/cfn-lint template.yaml
	SAM_CLI_TELEMETRY=0 $(BIN)/sam validate --lint --region eu-west-1

## unit: the fast tests only (no random-game properties)
unit: $(STAMP)
	$(BIN)/python -m pytest --ignore=tests/test_properties.py

## property: the random-game properties alone (PROPERTY_GAMES=520 by default)
property: $(STAMP)
	$(BIN)/python -m pytest tests/test_properties.py

## bench: every benchmark (docs/performance.md), about 6 minutes; figures, no pass/fail
bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/backend.py
	CONCURRENCY_ROUNDS=50 $(BIN)/python -m pytest -q -s tests/test_handlers_moto.py -k twelve -p no:cacheprovider | grep "write attempts"
	$(BIN)/python bench/imports.py
	$(BIN)/python bench/local_stack.py

## balance: the RULES §11 measurement behind docs/balance.md (about 15 minutes on 2 cores)
balance: $(STAMP)
	$(BIN)/python -m engine.simulate --players 4-12 --games 2000 --workers 2

## screens: docs/screens/*.png, every screen at 360×640 from a UI-only game (needs chromium)
screens: $(STAMP)
	$(BIN)/python -m tests.screens

## scenarios: rewrite tests/scenarios/*.json from tests/scenarios/generate.py
scenarios: $(STAMP)
	$(BIN)/python -m tests.scenarios.generate

## package: build/lambda = functions/ + engine/ + runtime wheels for Lambda (arm64, 3.12)
PACKAGE_DIR     ?= build/lambda
LAMBDA_PLATFORM ?= manylinux2014_aarch64
LAMBDA_PYTHON   ?= 3.12
package: package-code
	$(BIN)/pip install --quiet --no-warn-conflicts --target $(PACKAGE_DIR) --platform $(LAMBDA_PLATFORM) \
		--python-version $(LAMBDA_PYTHON) --implementation cp --only-binary=:all: \
		'pydantic>=2.6,<3' 'aws-lambda-powertools>=3.0,<4'

## package-code: only the project's code (no tests/, frontend/, events/, caches)
package-code:
	rm -rf $(PACKAGE_DIR) && mkdir -p $(PACKAGE_DIR)
	cp -r functions engine $(PACKAGE_DIR)/
	find $(PACKAGE_DIR) -name __pycache__ -type d -prune -exec rm -rf {} +

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .coverage .hypothesis
