"""preuve.settings: one Settings object, built by the front ends from flags > settings
file > PREUVE_* variables > defaults, passed down; nothing below the front ends reads the
environment."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import KEYWORD_ONLY

from preuve import Index
from preuve.answer.generators import GeneratorError, OpenAIGenerator
from preuve.cli import cli
from preuve.errors import InvalidInput
from preuve.settings import VARIABLES, Settings, readme_table

REPO = Path(__file__).resolve().parents[1]


def test_precedence_flags_over_file_over_environment_over_defaults(tmp_path):
    env = {"PREUVE_INDEX": "from-env.sqlite", "PREUVE_LLM_MODEL": "env-model",
           "PREUVE_PG_POOL": "7", "PREUVE_LLM_TIMEOUT": "12.5"}
    config = tmp_path / "settings.yaml"
    config.write_text("index: from-file.sqlite\nllm_model: file-model\npg_pool: 9\n",
                      encoding="utf-8")
    assert Settings.load(env={}) == Settings()
    assert Settings().mcp_audience == "public" and Settings().index is None
    from_env = Settings.load(env=env)
    assert (from_env.index, from_env.pg_pool, from_env.llm_timeout) == \
        ("from-env.sqlite", 7, 12.5)
    from_file = Settings.load(env=env, config=config)
    assert (from_file.index, from_file.llm_model, from_file.pg_pool) == \
        ("from-file.sqlite", "file-model", 9)
    assert from_file.llm_timeout == 12.5  # not in the file: the environment's
    flagged = Settings.load(env=env, config=config, index="flag.sqlite", llm_model=None)
    assert flagged.index == "flag.sqlite" and flagged.llm_model == "file-model"
    assert flagged.with_(pg_pool=2, index=None).pg_pool == 2


def test_api_key_fallback_and_secrets_kept_out_of_repr():
    both = Settings.load(env={"OPENAI_API_KEY": "sk-openai", "PREUVE_LLM_API_KEY": "sk-p",
                              "PREUVE_API_KEYS": "k1:public"})
    assert both.llm_api_key == "sk-p"
    assert Settings.load(env={"OPENAI_API_KEY": "sk-openai"}).llm_api_key == "sk-openai"
    assert "sk-p" not in repr(both) and "k1" not in repr(both)
    assert "llm_api_key='<set>'" in repr(both)


@pytest.mark.parametrize("env, words", [
    ({"PREUVE_PG_POOL": "many"}, "PREUVE_PG_POOL='many' is not a number (a whole number)"),
    ({"PREUVE_LLM_TIMEOUT": "soon"}, "PREUVE_LLM_TIMEOUT='soon' is not a number"),
    ({"PREUVE_ANN_THRESHOLD": "1e3x"}, "PREUVE_ANN_THRESHOLD"),
])
def test_bad_values_name_the_variable(env, words):
    with pytest.raises(InvalidInput) as info:
        Settings.load(env=env)
    assert words in str(info.value)


def test_bad_settings_files_name_the_file_and_key(tmp_path):
    unknown = tmp_path / "a.yaml"
    unknown.write_text("indx: x.sqlite\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"a.yaml: unknown setting 'indx' \(known: "):
        Settings.load(env={}, config=unknown)
    wrong = tmp_path / "b.yaml"
    wrong.write_text("pg_pool: lots\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"b.yaml: pg_pool='lots' is not a number"):
        Settings.load(env={}, config=wrong)
    listed = tmp_path / "c.yaml"
    listed.write_text("- index\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="c.yaml: expected a mapping"):
        Settings.load(env={}, config=listed)
    with pytest.raises(TypeError, match="no field 'indexx'"):
        Settings.load(env={}, indexx="x")


def test_the_generator_is_configured_from_settings():
    settings = Settings.load(env={"PREUVE_LLM_BASE_URL": "http://127.0.0.1:9/v1",
                                  "PREUVE_LLM_MODEL": "m", "PREUVE_LLM_MAX_RETRIES": "1",
                                  "OPENAI_API_KEY": "sk-x"})
    generator = OpenAIGenerator.from_settings(settings)
    assert (generator.model, generator.api_key, generator.max_retries, generator.timeout) == \
        ("m", "sk-x", 1, 60)
    assert OpenAIGenerator.from_settings(settings, model="other").model == "other"
    with pytest.raises(GeneratorError, match="PREUVE_LLM_BASE_URL"):
        OpenAIGenerator.from_settings(Settings())


def test_the_index_takes_its_location_and_store_tuning_from_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PREUVE_INDEX", str(tmp_path / "env.sqlite"))  # not read here
    monkeypatch.setenv("PREUVE_ANN_THRESHOLD", "5")
    settings = Settings(index=str(tmp_path / "set.sqlite"), ann_threshold=123)
    with Index(settings=settings, embedder=KEYWORD_ONLY) as index:
        assert index.engine.store.location == str(tmp_path / "set.sqlite")
        assert index.engine.store.ann_threshold == 123
    with Index(embedder=KEYWORD_ONLY) as index:
        assert index.engine.store.ann_threshold is None
        assert index.engine.store.location == str(Path(".preuve") / "index.sqlite")
    assert not (tmp_path / "env.sqlite").exists()


def test_postgres_store_tuning_from_settings(pg_base):
    from preuve.store import open_store

    settings = Settings.load(env={"PREUVE_PG_POOL": "2", "PREUVE_HNSW_THRESHOLD": "77",
                                  "PREUVE_HNSW_EF_SEARCH": "33"})
    store = open_store(pg_base, settings)
    try:
        assert store.pool.max_size == 2 and store.hnsw_threshold == 77
        assert store.ef_search == 33
        with store.pool.connection() as conn:
            assert conn.execute("SHOW hnsw.ef_search").fetchone()[0] == "33"
    finally:
        store.close()


def test_the_cli_reads_a_settings_file_under_its_flags(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nQuetzalcoatl.\n", encoding="utf-8")
    file_index, env_index = tmp_path / "file.sqlite", tmp_path / "env.sqlite"
    config = tmp_path / "settings.yaml"
    config.write_text(f"index: {file_index}\nembedder: {KEYWORD_ONLY}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    env = {"PREUVE_INDEX": str(env_index), "PREUVE_EMBEDDER": "e5", "PREUVE_AUDIENCE": None}

    def run(*args):
        result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert run("--settings", str(config), "ingest", str(folder), "--json")["added"] == ["a.md"]
    assert file_index.exists() and not env_index.exists()  # the file over the environment
    assert run("--settings", str(config), "status", "--json")["documents"] == 1
    # without it: the environment's index, which does not exist (and is not made)
    missing = CliRunner().invoke(cli, ["status", "--json"], env=env)
    assert missing.exit_code == 3 and not env_index.exists()
    flagged = CliRunner().invoke(cli, ["--settings", str(config), "status", "--index",
                                       str(env_index)], env=env)
    assert flagged.exit_code == 3 and str(env_index) in flagged.output  # the flag wins
    result = CliRunner().invoke(cli, ["--settings", str(config), "status"],
                                env={"PREUVE_PG_POOL": "x"})
    assert result.exit_code != 0 and "PREUVE_PG_POOL='x'" in result.output


def test_the_readme_documents_every_variable_in_one_table():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(PREUVE_\w+)` \| (.+?) \| (.+?) \|$", readme, re.M)
    assert [r[0] for r in rows] == [v.name for v in VARIABLES]
    for (name, meaning, default), var in zip(rows, VARIABLES, strict=True):
        assert meaning == var.meaning and default == var.default, name
    assert {f.name for f in fields(Settings)} == {v.field for v in VARIABLES}


def test_settings_fields_are_declared_in_the_source_with_their_variable():
    """Issue 22: `Settings` was made at import from a TOML table (`make_dataclass`), so no
    IDE, type checker or grep saw its fields; each is now an annotated field of the class,
    its variable, meaning and README default in the field's metadata."""
    tree = ast.parse((REPO / "preuve" / "settings.py").read_text("utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings")
    declared = {}
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call):
            declared[node.target.id] = ast.literal_eval(node.value.args[0])
    assert declared == {v.field: v.name for v in VARIABLES}
    kinds = {v.field: v.kind for v in VARIABLES}
    assert (kinds["pg_pool"], kinds["llm_timeout"], kinds["cache"]) == (int, float, str)
    assert Settings.load(env={"PREUVE_PG_POOL": "7"}).pg_pool == 7  # converted by its type


def test_the_readme_table_is_generated_from_the_fields_and_drift_is_caught(tmp_path):
    """`make settings-table` writes the README's table from the fields' metadata; its
    `--check` (run by `make lint`) fails when the README and the fields disagree."""
    script = [sys.executable, str(REPO / "scripts" / "settings_table.py")]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    assert subprocess.run([*script, "--check"], env=env).returncode == 0  # the real README
    readme = tmp_path / "README.md"
    text = (REPO / "README.md").read_text("utf-8")
    drifted = text.replace("PostgreSQL: connections per store.", "connections.")
    assert drifted != text
    readme.write_text(drifted, "utf-8")
    check = subprocess.run([*script, "--check", "--readme", str(readme)], env=env,
                           capture_output=True, text=True)
    assert check.returncode == 1 and "make settings-table" in check.stderr
    assert subprocess.run([*script, "--readme", str(readme)], env=env).returncode == 0
    assert readme.read_text("utf-8") == text  # written back from the fields
    assert readme_table() in text


def test_nothing_below_the_front_ends_reads_the_environment():
    readers = re.compile(r"os\.environ\.get|os\.getenv|getenv\(|environ\[\"PREUVE|"
                         r"environ\.items|os\.environ\s+if")
    found = []
    for path in sorted((REPO / "preuve").rglob("*.py")):
        if path.name == "settings.py" and path.parent.name == "preuve":
            continue  # the one place that reads it, when a front end asks
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if readers.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert found == []
    # every PREUVE_ variable the code names is one of the table's (PREUVE_LLM_* aside)
    named, variable = set(), re.compile(r"PREUVE_[A-Z0-9_]+[A-Z0-9](?![A-Z0-9_*])")
    for path in (REPO / "preuve").rglob("*.py"):
        named |= set(variable.findall(path.read_text(encoding="utf-8")))
    assert named <= {v.name for v in VARIABLES}, named - {v.name for v in VARIABLES}


@pytest.mark.parametrize("variable", ["PREUVE_AUDIENCE", "PREUVE_MCP_AUDIENCE",
                                      "PREUVE_ANONYMOUS"])
@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_audience_variable_is_refused_not_read_as_the_operator(variable, blank):
    """`--audience ""` was refused while PREUVE_AUDIENCE="" read as unset, i.e. the
    operator, who reads everything (issue 21 item 10)."""
    with pytest.raises(InvalidInput, match=f"{variable} is set but blank"):
        Settings.load(env={variable: blank})
    assert Settings.load(env={}).audience is None  # unset stays the operator
    result = CliRunner().invoke(cli, ["status"], env={variable: blank})
    assert result.exit_code == 2 and "set but blank" in result.output
