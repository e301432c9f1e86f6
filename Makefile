# The two commands a newcomer needs: `make dev` and `make test`. Both install what they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: dev demo test check lint test-engine test-service test-integration test-e2e property soak bench balance scenarios name-tables screens package package-code \
	deploy destroy smoke clean

# The runtime dependencies are pinned in functions/requirements.txt: the venv installs
# them as constraints, so the tests run the versions the Lambda package ships.
RUNTIME_LOCK := functions/requirements.txt

# PyICU (a dev dependency: make name-tables and its test) has no wheels: it compiles against
# Debian's ICU, installed here when missing (root on a fresh machine), as .ci/run does.
ICU_PACKAGES := libicu-dev pkg-config g++

$(STAMP): pyproject.toml $(RUNTIME_LOCK)
	@pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null || { \
	  echo "Installing $(ICU_PACKAGES) (apt) for PyICU..."; \
	  apt-get update -qq && apt-get install -y -qq $(ICU_PACKAGES) >/dev/null; }
	@echo "Setting up $(VENV) (the first time takes about 2 minutes; later runs skip this)"
	@$(PYTHON) -m venv $(VENV)
	@echo "  1/2 pip itself..."
	@$(BIN)/pip install --quiet --upgrade pip
	@echo "  2/2 the project's packages (pyproject.toml, pinned by $(RUNTIME_LOCK))..."
	@$(BIN)/pip install --quiet -e '.[dev]' -c $(RUNTIME_LOCK)
	@touch $(STAMP)
	@echo "Installed."

## dev: the game on this machine for phones on the same Wi-Fi (ARGS="--bots 5 --port 8080")
dev: $(STAMP)
	$(BIN)/python -m local_stack $(ARGS)

## demo: a full bot game printed turn by turn (ARGS="--players 9 --seed 4")
demo: $(STAMP)
	$(BIN)/python -m engine.demo $(ARGS)

## test: lint, then every test (TEST_WORKERS at once: docs/testing.md), with the engine's
## coverage >= 90 % measured on its rules' tests; ends with the time each layer took
TEST_WORKERS ?= 4
PYTEST := $(BIN)/python -m pytest
test: lint
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal --cov=engine --cov-report=term \
		--cov-fail-under=90 --durations=15

## check: the inner loop, at most 5 minutes: lint, then the engine's and the room service's
## tests without each game's random-game properties (what `make unit` ran)
check: lint
	$(PYTEST) -n 2 tests/engine tests/service --ignore-glob='*/test_properties.py'

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/cfn-lint template.yaml
	SAM_CLI_TELEMETRY=0 $(BIN)/sam validate --lint --region eu-west-1

## test-engine, test-service, test-integration, test-e2e: one layer of tests/ each
## (engine rules and properties; room service over in-memory ports; handlers on moto, the
## local stack and the deploy step; the phone client in Chromium). `make test` runs all four.
test-engine test-service test-integration test-e2e: test-%: $(STAMP)
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal tests/$*

## property: the random-game properties alone, every game's (PROPERTY_GAMES=200 each by default)
property: $(STAMP)
	$(PYTEST) $(sort $(shell find tests/engine -name test_properties.py))

## soak: the slow guards at their full counts (docs/testing.md): 5,000 random games of each
## game, then the balance and deduction guards, then the twelve-way vote race 200 times
## (50 in make test); about 20 minutes on 2 cores
SOAK_GAMES ?= 5000
soak: $(STAMP)
	PROPERTY_GAMES=$(SOAK_GAMES) $(PYTEST) -n 2 tests/engine -m slow
	CONCURRENCY_ROUNDS=200 $(PYTEST) tests/integration/test_handlers_moto.py -k twelve_simultaneous

## bench: every benchmark (docs/performance.md), about 8 minutes; figures, no pass/fail
bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/backend.py
	CONCURRENCY_ROUNDS=50 $(BIN)/python -m pytest -q -s tests/integration/test_handlers_moto.py -k twelve -p no:cacheprovider | grep "write attempts"
	$(BIN)/python bench/imports.py
	$(BIN)/python bench/local_stack.py
	$(BIN)/python bench/flood.py

## balance: the measurements behind each game's docs/balance*.md: every game with command-line
## helpers (engine/games.py) over its player range (about 35–45 minutes on 2 cores)
# KEY:MIN-MAX of each such game, read from the registry only by a recipe that needs it
# (after $(STAMP) has made the venv). Each run is echoed (set -x) as make echoes a command.
BALANCE_RUNS = $(shell $(BIN)/python -c 'from engine.games import GAMES; print(*(f"{key}:{game.min_players}-{game.max_players}" for key, game in GAMES.items() if game.command_line))')
balance: $(STAMP)
	@set -ex; for run in $(or $(BALANCE_RUNS),$(error no game to simulate)); do \
	  $(BIN)/python -m engine.simulate --game $${run%%:*} --players $${run#*:} --games 2000 --workers 2; \
	done

## screens: docs/screens/*.png, every screen at 360×640 and 390×844 in four languages from UI-only games (needs chromium)
screens: $(STAMP)
	$(BIN)/python -m tests.support.screens

## scenarios: rewrite each game's scenario files (tests/engine/**/scenarios/*.json) from the
## generate.py beside them
SCENARIO_MODULES = $(subst /,.,$(basename $(sort $(shell find tests/engine -path '*/scenarios/generate.py'))))
scenarios: $(STAMP)
	@set -ex; for module in $(SCENARIO_MODULES); do $(BIN)/python -m $$module; done

## name-tables: rewrite functions/room_service/domain/name_tables.py (the look-alike tables
## names.py compares player names with) from the installed ICU, through PyICU
name-tables: $(STAMP)
	$(BIN)/python -m functions.room_service.domain.make_name_tables

## package: build/lambda = functions/ + engine/ + the pinned runtime wheels for Lambda
## (arm64, Python 3.12), with bytecode compiled by Python 3.12 (no recompiling at cold start)
PACKAGE_DIR     ?= build/lambda
LAMBDA_PLATFORM ?= manylinux2014_aarch64
LAMBDA_PYTHON   ?= 3.12
# The runtime's Python: python3.12 on PATH, else pyenv's newest 3.12.
LAMBDA_PYTHON_BIN ?= $(shell python$(LAMBDA_PYTHON) -c '' 2>/dev/null && echo python$(LAMBDA_PYTHON) || \
	ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/$(LAMBDA_PYTHON).*/bin/python$(LAMBDA_PYTHON) 2>/dev/null | tail -1)
# Bytecode checked by hash, not by time: Lambda's files are read-only, with times of the
# unzip, so time-checked .pyc files would all look stale and be recompiled at cold start.
PACKAGE_SOURCES := $(shell find functions engine -name '*.py' -not -path '*/__pycache__/*' 2>/dev/null)
package: $(PACKAGE_DIR)/.built

$(PACKAGE_DIR)/.built: $(STAMP) $(RUNTIME_LOCK) $(PACKAGE_SOURCES) Makefile
	@test -n "$(LAMBDA_PYTHON_BIN)" || { echo "make package needs Python $(LAMBDA_PYTHON) (the Lambda runtime's) for its bytecode: install it (e.g. pyenv install $(LAMBDA_PYTHON)) or set LAMBDA_PYTHON_BIN"; exit 1; }
	$(MAKE) --no-print-directory package-code
	$(BIN)/pip install --quiet --no-warn-conflicts --no-compile --target $(PACKAGE_DIR) \
		--platform $(LAMBDA_PLATFORM) --python-version $(LAMBDA_PYTHON) --implementation cp \
		--only-binary=:all: -r $(RUNTIME_LOCK)
	rm -rf $(PACKAGE_DIR)/bin
	$(LAMBDA_PYTHON_BIN) -m compileall -q -j 0 --invalidation-mode unchecked-hash $(PACKAGE_DIR)
	touch $@

## package-code: only the project's code (no tests/, frontend/, events/, caches, build-time tools)
package-code:
	rm -rf $(PACKAGE_DIR) && mkdir -p $(PACKAGE_DIR)
	cp -r functions engine $(PACKAGE_DIR)/
	rm -f $(PACKAGE_DIR)/$(RUNTIME_LOCK) $(PACKAGE_DIR)/functions/room_service/domain/make_name_tables.py
	find $(PACKAGE_DIR) -name __pycache__ -type d -prune -exec rm -rf {} +

# `sam build` (template.yaml: BuildMethod makefile) runs one of these per function, with
# ARTIFACTS_DIR set to that function's folder in .aws-sam/build.
build-ConnectFunction build-DisconnectFunction build-MessageFunction build-TimerFunction: package
	mkdir -p $(ARTIFACTS_DIR)
	cp -r $(PACKAGE_DIR)/. $(ARTIFACTS_DIR)/
	rm -f $(ARTIFACTS_DIR)/.built

## deploy: build, check the account (preflight), deploy the stack, publish frontend/, then
## play a smoke game against it (docs/deploy.md). Needs AWS credentials.
## STACK=catch-the-witch REGION=eu-west-1 ALARM_EMAIL=you@example.com PARAMS="LogRetentionDays=30"
STACK       ?= catch-the-witch
# REGION, else AWS_REGION, else AWS_DEFAULT_REGION, else the AWS profile's region
# (~/.aws/config), else eu-west-1. The profile is read once, and only by a recipe that
# needs the region (after $(STAMP) has made the venv).
REGION      ?= $(or $(AWS_REGION),$(AWS_DEFAULT_REGION),$(PROFILE_REGION))
PROFILE_REGION = $(eval PROFILE_REGION := $$(shell $(BIN)/python -m deploy region 2>/dev/null || echo eu-west-1))$(PROFILE_REGION)
ALARM_EMAIL ?=
PARAMS      ?=
OVERRIDES   := $(strip $(if $(ALARM_EMAIL),AlarmEmail=$(ALARM_EMAIL)) $(PARAMS))
SAM         := SAM_CLI_TELEMETRY=0 $(BIN)/sam
STACK_ARGS   = --stack $(STACK) --region $(REGION)
# The preflight (deploy/preflight.py) prints the parameter overrides it chose for the
# account on stdout, and why on stderr; it stops the deploy (exit 1) with the command to
# run instead. Artifacts go under the stack's own prefix, which make destroy deletes.
deploy: $(STAMP)
	$(SAM) build
	overrides="$$($(BIN)/python -m deploy preflight $(STACK_ARGS) --parameter-overrides '$(OVERRIDES)')" && \
	$(SAM) deploy --stack-name $(STACK) --region $(REGION) --s3-prefix $(STACK) --parameter-overrides $$overrides
	$(BIN)/python -m deploy publish $(STACK_ARGS)
	$(BIN)/python -m deploy.smoke $(STACK_ARGS)

## smoke: bot phones play a whole game of each game against the deployed stack, and the
## page's security headers are checked (deploy/smoke.py); make deploy ends with it
smoke: $(STAMP)
	$(BIN)/python -m deploy.smoke $(STACK_ARGS)

## destroy: delete the stack in whatever state it is (failed, half-deleted, without
## outputs, already gone), with its bucket's files and its uploaded artifacts
destroy: $(STAMP)
	$(BIN)/python -m deploy destroy $(STACK_ARGS)

clean:
	rm -rf $(VENV) build .aws-sam .pytest_cache .ruff_cache .coverage .hypothesis
