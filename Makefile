# PSL Triage: the two commands a new clone needs are `make run` and `make test`.
# Both create .venv on first use and reinstall requirements only when a
# requirements file changed (stamp files inside .venv record the last install).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501
# Patient data stays on this machine: serve this computer only unless told otherwise
# (make run ADDRESS=0.0.0.0 serves the whole network).
ADDRESS ?= 127.0.0.1
# Host names the app answers to (Streamlit's server.allowedHosts): add the name users type
# when serving the network, e.g. make run ADDRESS=0.0.0.0 ALLOWED_HOSTS="psl.hospital.example".
ALLOWED_HOSTS ?= localhost 127.0.0.1 ::1
# Streamlit's own upload limit follows the app's setting (megabytes).
PSL_MAX_UPLOAD_MB ?= 50
PIP_INSTALL := $(PY) -m pip install --quiet --disable-pip-version-check --progress-bar off
CHROMIUM := /usr/bin/chromium

RUN_STAMP  := $(VENV)/.installed-requirements
TEST_STAMP := $(VENV)/.installed-requirements-test
# numba's compiled kernels, cached on disk (psl_core/__pycache__) by psl_core.warmup: the
# first fit then loads them in under a second instead of compiling for half a minute.
WARM_STAMP := $(VENV)/.warmed-kernels

.PHONY: run test test-fast bench chromium clean help warm
.DEFAULT_GOAL := help

help:
	@echo "make run    set up .venv, compile the kernels and start the app on http://localhost:$(PORT) (PORT=8600 to change)"
	@echo "make test   set up .venv (and Debian chromium when root), lint with ruff and run the whole test suite"
	@echo "make test-fast  the inner loop: ruff and every test but the browser and slow ones"
	@echo "make bench  psl_core against scikit-psl and FasterRisk (BENCH_ARGS=\"--splits 10\"; see bench/README.md)"
	@echo "make warm   compile psl_core's kernels into numba's cache now (run and test do it when kernels.py changed)"
	@echo "make clean  remove .venv and test artifacts"

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "PSL Triage needs Python 3.11 or newer; '$(PYTHON)' is $$($(PYTHON) -V 2>&1)." >&2; \
		  echo "Point make at another interpreter: make PYTHON=python3.11 ..." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): requirements.txt | $(PY)
	$(PIP_INSTALL) -r requirements.txt
	@touch $@

$(TEST_STAMP): requirements-test.txt requirements.txt | $(PY)
	$(PIP_INSTALL) -r requirements-test.txt
	@touch $@

# Every module with numba kernels (tests/core/test_kernel_cache.py checks the list).
KERNEL_MODULES := psl_core/calibration_kernels.py psl_core/kernels.py psl_core/monitoring.py

# Compile the kernels once per change of their source (or of numba: requirements.txt).
$(WARM_STAMP): $(KERNEL_MODULES) psl_core/warmup.py $(RUN_STAMP)
	@echo "Compiling psl_core's kernels into numba's cache (on first use, and after a change of $(KERNEL_MODULES)): about 30 s on a quiet machine"
	$(PY) -m psl_core.warmup
	@touch $@

run: $(RUN_STAMP) $(WARM_STAMP)
	PSL_MAX_UPLOAD_MB=$(PSL_MAX_UPLOAD_MB) STREAMLIT_SERVER_ALLOWED_HOSTS="$(ALLOWED_HOSTS)" $(VENV)/bin/streamlit run serve.py \
		--server.address $(ADDRESS) --server.port $(PORT)

# Compile (or load) the kernels now, whatever the stamp says.
warm: $(RUN_STAMP)
	$(PY) -m psl_core.warmup
	@touch $(WARM_STAMP)

# Browser tests drive Debian's chromium through Playwright (Playwright's own
# browser download cannot work on a closed network).
chromium:
	@if [ -x $(CHROMIUM) ]; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends chromium; \
	else \
		echo "NOTE: $(CHROMIUM) is missing and this is not root, so the browser tests will be skipped."; \
		echo "      Install it with: sudo apt-get install chromium"; \
	fi

# pytest's exit code 5 means "no tests were collected": reported, not a failure.
test: $(TEST_STAMP) $(WARM_STAMP) chromium
	$(VENV)/bin/ruff check .
	@status=0; $(PY) -m pytest $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; status=0; fi; \
	exit $$status

# The inner loop while editing: no browser, nothing marked slow (the kernel-cache recompile, the
# pip install). CI and `make test` still run everything.
test-fast: $(TEST_STAMP) $(WARM_STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -m "not browser and not slow" $(PYTEST_ARGS)

# The peers live in their own venv (bench/.venv-peers): their pins clash with ours.
bench: $(RUN_STAMP)
	bash bench/setup_peers.sh
	$(PY) bench/compare.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache
