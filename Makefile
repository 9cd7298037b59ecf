# safari_kit: two commands on a fresh machine.
#   make lab   - set everything up, copy the lessons into my-lessons/ and open JupyterLab there
#   make test  - set everything up and run every test
#   make check - the fast loop: ruff, mypy, the import layers, and the tests without browser, Binder or slow ones
#   make class - the classroom app for a whole class on the school network (make app: one laptop)
#   make site  - the static site (JupyterLite + Voici) in site/; make site OFFLINE=1: nothing fetched from a CDN.
#                Its lessons are the student copies (no solutions, no teacher notes); make site TEACHER=1 adds the
#                teacher's copies in a teacher/ folder of the site: a site for the teacher, not for the class
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: lab test check lint venv clean student app class binder-check site hub-proxy

# Python keeps the bytecode of each module it imports (a .pyc beside it) and every later process reads it. Where
# PYTHONDONTWRITEBYTECODE is set (some CI images and containers set it) every process compiles every module it
# imports again, each time: a kernel's first imports 0.8 -> 2.0 CPU-s, and pytest rewrites and compiles all 350
# test modules in each worker (issue 28: some 170 kernels and 30 servers a run). The kit's commands unset it.
unexport PYTHONDONTWRITEBYTECODE

venv: $(STAMP)

# INSTALLER=uv (the default): pip puts uv (Astral's installer, from PyPI) in the venv, and uv installs the kit and
# everything else, pip's newest release among them. pip spent half of its time on 2 cores resolving (issue 28,
# session 14: a fresh venv with pip 36-40 s and 35-38 CPU-s, with uv 14-27 s and 16-39 CPU-s, uv's system time
# moving with the disk; `/usr/bin/time make -s venv` after `rm -rf .venv`, uv's cache empty). uv reads no pip.conf: a school whose PyPI mirror is set there
# (not in UV_INDEX_URL) runs `make lab INSTALLER=pip`. Neither writes bytecode at install (pip: --no-compile; uv by
# default): Python writes it for the modules a program imports, the first time (PYTHONDONTWRITEBYTECODE is unset
# above; issue 28: pip's install 47.7 -> 21.8 CPU-s; the first JupyterLab start compiles what it imports, once).
INSTALLER ?= uv
UV_VERSION := uv>=0.9,<1
# $(call install_into,<a venv's python>,<what to install>); a comma in what to install must come in a variable
KIT_INSTALL := -e '.[lab,test]'
define install_into
	$(if $(filter pip,$(INSTALLER)),$(1) -m pip install --quiet --upgrade pip && \
	$(1) -m pip install --quiet --no-compile $(2),$(1) -m pip install --quiet --no-compile '$(UV_VERSION)' && \
	$(dir $(1))uv pip install --quiet --python $(1) pip $(2))
endef
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "safari_kit needs Python 3.11 or newer; this is " + sys.version.split()[0] + ". Run make PYTHON=python3.12 (or any 3.11+).")'
	$(PYTHON) -m venv $(VENV)
	$(call install_into,$(PY),$(KIT_INSTALL))
	touch $(STAMP)

# JupyterLab refuses to run as root unless told; CI machines and containers run as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root,)

# Nagle's algorithm off on the kernel websocket (no ~40 ms stalls per click; README "Quick clicks").
# JupyterLab (and Binder) load safari_kit.server as a server extension, enabled by the
# etc/jupyter/jupyter_server_config.d/safari_kit.json that the install puts in place;
# Voila on its own loads no server extensions, so `make app` names the connection class.
VOILA_NODELAY := --Voila.kernel_websocket_connection_class=safari_kit.server.NoDelayZMQChannelsWebsocketConnection

# JupyterLab opens your own copies of the lessons (git-ignored), never notebooks/ itself: running and
# saving a lesson writes outputs into it, and the kit's files must stay as committed (a teacher's next
# `git pull`). Run again to bring in newer lessons; copies whose cells you edited are kept and named.
# LAB_ARGS: extra options for jupyter lab (e.g. LAB_ARGS=--no-browser).
# LAB_LANG=es: JupyterLab's own menus in Spanish for this run (issue 30; its language pack,
# jupyterlab-language-pack-es-ES, comes with the lab extra; tools/lab_language.py). Without it JupyterLab speaks
# English, and its Settings > Language menu switches it for good. The Spanish lessons are in my-lessons/es/.
LESSONS_DIR ?= my-lessons
LAB_SETTINGS = $(VENV)/lab-settings-$(LAB_LANG)
lab: $(STAMP)
	$(VENV)/bin/safari-kit lessons $(LESSONS_DIR) --from notebooks
	$(if $(LAB_LANG),$(PY) tools/lab_language.py $(LAB_LANG) $(LAB_SETTINGS))
	$(VENV)/bin/jupyter lab $(LESSONS_DIR)/ $(ROOT_FLAG) $(if $(LAB_LANG),--LabApp.app_settings_dir=$(LAB_SETTINGS)) $(LAB_ARGS)

# ruff (style, pyflakes), mypy (the engine layers), import-linter (the layers of CONTRIBUTING.md)
lint: $(STAMP)
	$(PY) -m ruff check safari_kit tests tools site-src
	$(PY) -m mypy
	$(VENV)/bin/lint-imports

# --durations and the JUnit XML say where the time goes (python tools/suite_times.py sums it by tier).
# Four pytest-xdist workers on the 2 cores (issue 28: the workers mostly wait on servers and pages; three kept the
# machine 75 % busy, four 86 %: pytest 860 s -> 780 s, fresh clones 20 minutes apart; TEST_WORKERS=0:
# one process); each gets whole test files, longest first (the
# suite's own scheduler, tests/conftest.py; the static site's builds first: tests/site_builds.py); browser tests last on each.
# PYTEST_ARGS="-p tests.cpu_times": CPU seconds per test too (tools/suite_times.py --cpu).
# Lint runs beside the tests, not before them: mypy took 20 s of one core on a fresh clone while the other waited
# (issue 28). Its output goes to test-artifacts/lint.log; a lint failure fails make test, its log printed at the end.
# One collection first, in one process (beside lint): on a fresh clone nothing is compiled yet, and four workers
# collecting at once each compiled and assertion-rewrote the same 350 test modules and the libraries they import
# (22 CPU-s each; 6 once cached: issue 28). Its errors show again in the real run, so its output goes to a log.
# The static site's two test builds start first, in the background, beside the venv's install (tests/site_builds.py
# run as a script, under this run's id, SAFARI_TEST_SITE_RUN): the venv's install keeps one core busy (pip's: half
# a minute; uv's: about 10 s) and the other waited, while the builds (about 65 CPU-s) used to run among the tests. The tests find them
# made, or wait on their lock; a build that failed here is made again by its test, which shows the output.
# Without npm (a laptop) there is nothing to build early; TEST_EARLY_SITES=0 turns it off.
TEST_WORKERS ?= 4
TEST_EARLY_SITES ?= 1
test:
	@mkdir -p test-artifacts; rm -f test-artifacts/lint.rc test-artifacts/site-builds.log
	@export SAFARI_TEST_SITE_RUN=$$(od -An -N8 -tx8 /dev/urandom | tr -d ' '); sites=; \
	if [ "$(TEST_EARLY_SITES)" != 0 ] && command -v npm >/dev/null; then \
	  $(PYTHON) tests/site_builds.py > test-artifacts/site-builds.log 2>&1 & sites=$$!; fi; \
	$(MAKE) --no-print-directory hub-proxy || { [ -z "$$sites" ] || kill $$sites; exit 1; }; \
	{ $(MAKE) -s lint > test-artifacts/lint.log 2>&1; echo $$? > test-artifacts/lint.rc; } & \
	$(if $(filter 0,$(TEST_WORKERS)),,$(PY) -m pytest --collect-only -q -p no:cacheprovider > test-artifacts/collect.log 2>&1;) \
	SAFARI_TEST_COLLECTED_FIRST=$(if $(filter 0,$(TEST_WORKERS)),0,1) $(PY) -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder --durations=40 --junitxml=test-artifacts/junit.xml $(PYTEST_ARGS); \
	rc=$$?; wait; \
	if [ "$$(cat test-artifacts/lint.rc 2>/dev/null)" != 0 ]; then cat test-artifacts/lint.log; \
	echo "make test: lint failed (its output is above and in test-artifacts/lint.log)"; exit 1; fi; \
	echo "make test: lint passed (test-artifacts/lint.log)"; exit $$rc

# JupyterHub's proxy for the hub tests (tests/hub, issue 29): configurable-http-proxy from npm, into .venv/chp
# (git-ignored with the venv) unless one is on PATH (.ci/run installs it globally as root). Without npm the hub
# tests skip on a laptop (never when CI=true).
CHP := $(VENV)/chp/node_modules/.bin/configurable-http-proxy
hub-proxy: $(STAMP)
	@if command -v configurable-http-proxy >/dev/null || [ -x $(CHP) ]; then :; \
	elif command -v npm >/dev/null; then npm install --prefix $(VENV)/chp --no-save --no-audit --no-fund --silent \
	configurable-http-proxy; else echo "npm not found: the hub tests (tests/hub) will skip"; fi

check: lint
	$(PY) -m pytest -q -p no:cacheprovider -n 2 -m "not slow and not browser" --ignore=tests/browser --ignore=tests/binder

app: $(STAMP)
	$(VENV)/bin/voila notebooks/app.ipynb $(VOILA_NODELAY)

# The app for a class on the school network (docs/teachers.md, "Class server"): every interface, port 8866,
# each lab owned by the browser that opened it, caps on labs, memory and message sizes; prints the address
# to give learners. CLASS_ARGS: e.g. CLASS_ARGS="--ip 192.168.1.20 --port 8000 --max-labs 40".
# CLASS_LANG: the class's language, e.g. `make class CLASS_LANG=es` (passes --lang; not LANG, the shell's locale).
class: $(STAMP)
	$(VENV)/bin/safari-kit class notebooks/app.ipynb $(if $(CLASS_LANG),--lang $(CLASS_LANG)) $(CLASS_ARGS)

# the learners' copies (no solutions, no teachers' notes), as Binder's build (binder/postBuild) makes them;
# a language's lessons (notebooks/es/) go to student/es/ (make lab: my-lessons/es/), issue 30
student: $(STAMP)
	$(VENV)/bin/safari-kit lessons student --student --from notebooks

# Binder without Docker: the generated build (repo2docker --no-build) and a
# fresh venv from binder/requirements.txt that runs every notebook.
binder-check: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider tests/binder

# The static site: its own build venv (site-src/requirements.txt pins versions that differ from .venv's),
# downloads cached in .site-build/ (git-ignored). OFFLINE=1: the Pyodide core runtime from npm and only
# pure-Python wheels; otherwise the kernel's packages come from the standard online Pyodide distribution.
SITE_VENV := .site-build/venv
SITE_STAMP := $(SITE_VENV)/.installed

# rfc3987-syntax (jsonschema's format-nongpl extra, through jupyter-events) builds 38 Lark parsers when it is imported:
# 1.5 CPU-s in each `voici build` (jsonschema#1392). jsonschema checks IRIs without it; the build validates none.
$(SITE_STAMP): site-src/requirements.txt
	$(PYTHON) -m venv $(SITE_VENV)
	$(call install_into,$(SITE_VENV)/bin/python,-r site-src/requirements.txt)
	$(SITE_VENV)/bin/python -m pip uninstall --quiet --yes rfc3987-syntax
	touch $(SITE_STAMP)

SITE_OUT ?= site
site: $(SITE_STAMP)
	$(SITE_VENV)/bin/python site-src/build_site.py --out $(SITE_OUT) $(if $(filter 1 yes true,$(OFFLINE)),--offline,) \
		$(if $(filter 1 yes true,$(TEACHER)),--teacher,) $(if $(filter 1 yes true,$(PRESTART)),--prestart,)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache site .site-build
