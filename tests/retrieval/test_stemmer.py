"""The C Snowball stemmer (PyStemmer) gives the stems the pure-Python one gave: swapping
them changes no token of any index, so no index needs rebuilding."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import snowballstemmer

from preuve import text

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT.parent / "shared" / "eval-data"


def words() -> list[str]:
    """Every distinct lower-case word of the sample corpus (French and English prose and
    code), and of the evaluation sets when they are there."""
    found: set[str] = set()
    sources = [p for p in (ROOT / "examples").rglob("*") if p.suffix in {".md", ".py", ".txt",
                                                                        ".html", ".yaml"}]
    for name in ("python311-faq-en/corpus.jsonl", "piaf/piaf-v1.1.json",
                 "cranfield/cran.all.1400"):
        if (EVAL / name).exists():
            sources.append(EVAL / name)
    for path in sources:
        body = path.read_text("utf-8", errors="replace")[:3_000_000]
        found.update(w.lower() for w in re.findall(r"[^\W\d_]+", body))
    return sorted(found)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_same_stems_as_pure_python_snowball(language):
    assert text._snowball_c is not None, "PyStemmer is a dependency"
    ours = text._stemmer(language)
    assert type(ours).__module__ == "Stemmer"
    reference = snowballstemmer.stemmer({"fr": "french", "en": "english"}[language])
    vocabulary = words()
    assert len(vocabulary) > 2_000
    differ = [w for w in vocabulary if ours.stemWord(w) != reference.stemWord(w)]
    assert differ == []
    # and through the tokenizer, accents folded after stemming
    assert text.stem("numérotation", "fr") == "numerot"
    assert text.stem("running", "en") == "run"
