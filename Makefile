# Two commands do all the set-up: `make run` starts the app, `make test` runs the whole suite.
VENV    ?= .venv
PYTHON  ?= python3
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
ARGS    ?=

.PHONY: install run test lint bench screenshots system-packages clean

install: system-packages $(STAMP)

# Debian / Raspberry Pi OS packages (Xvfb and Mesa for the UI tests); installs only as root.
system-packages:
	@sh deploy/system-packages.sh

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

run: install
	$(VENV)/bin/phoenix-companion $(ARGS)

lint: install
	$(VENV)/bin/ruff check .

test: lint
	$(PY) -m pytest

# Refresh the committed screenshots in docs/screenshots/ (the tests write to build/screenshots/).
screenshots: install
	PHOENIX_SCREENSHOTS=$(CURDIR)/docs/screenshots $(PY) -m pytest tests/ui

# Speed figures (printed, never asserted): the rules engine, the game store, the touchscreen app
# under Xvfb (start, touch to screen, memory), the dice reader on 150 synthetic photos of setups
# never photographed (vision/training/synth.py, seed 1000) and, where the labelled photos are
# (DICE_DATASET), on the real ones (accuracy and ms per image).
DICE_DATASET ?= ../shared/datasets/d6-tray
bench: install
	$(PY) tools/bench_engine.py
	$(PY) tools/bench_store.py
	$(PY) tools/bench_ui.py
	$(PY) -m vision.training.synth build/dice-synth --count 150 --seed 1000 --icon-dice 0
	$(VENV)/bin/phoenix-dice bench build/dice-synth
	@if [ -f "$(DICE_DATASET)/labels.json" ]; then \
		$(VENV)/bin/phoenix-dice bench "$(DICE_DATASET)"; \
		$(VENV)/bin/phoenix-dice bench "$(DICE_DATASET)" --held-out; \
		$(VENV)/bin/phoenix-dice bench "$(DICE_DATASET)" --calibrate 10; \
	else echo "dice bench skipped: no labelled photos at $(DICE_DATASET) (set DICE_DATASET)"; fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
