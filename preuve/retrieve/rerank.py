"""Second stage: a cross-encoder re-scores the hybrid candidates.

No cross-encoder ships in a package installable here, so none is bundled: the user points
`--reranker` (or `PREUVE_RERANKER`) at a local model folder. Built in: `onnx`, an ONNX
export (`model.onnx` + `tokenizer.json`, as produced by optimum / sentence-transformers),
run with onnxruntime on one thread. Plugins register others in `preuve.registry.rerankers`
(`--reranker NAME:ARGUMENT`). Without one, `--method rerank` is a clear error.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from preuve.errors import InvalidInput
from preuve.models import Hit
from preuve.registry import RerankerSpec, rerankers


class Reranker(Protocol):
    name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """Relevance of each passage to the query (higher is better)."""
        ...


class OnnxCrossEncoder:
    """A cross-encoder exported to ONNX: `model.onnx` and `tokenizer.json` in a folder."""

    def __init__(self, folder: str | os.PathLike, max_length: int = 512):
        folder = Path(folder)
        model, tokenizer = folder / "model.onnx", folder / "tokenizer.json"
        for needed in (model, tokenizer):
            if not needed.is_file():
                raise InvalidInput(f"reranker {folder}: missing {needed.name} (expected an ONNX "
                                   "cross-encoder export: model.onnx + tokenizer.json)")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(model), options,
                                                providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime's own classes: a damaged or foreign file
            raise InvalidInput(f"reranker {model}: not a usable ONNX model ("
                               f"{' '.join(str(exc).split())[:200]})") from None
        try:
            self.tokenizer = Tokenizer.from_file(str(tokenizer))
        except Exception as exc:  # tokenizers raises a bare Exception for a bad file
            raise InvalidInput(f"reranker {tokenizer}: not a usable tokenizer ("
                               f"{' '.join(str(exc).split())[:200]})") from None
        self.tokenizer.enable_truncation(max_length)
        self.tokenizer.enable_padding()
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.name = f"onnx:{folder.name}"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        encoded = self.tokenizer.encode_batch([(query, p) for p in passages])
        feed = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        logits = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})[0]
        logits = np.asarray(logits, dtype=np.float32)
        return (logits[:, -1] if logits.ndim == 2 else logits).reshape(-1).tolist()


def _onnx(folder: str) -> OnnxCrossEncoder:
    if not Path(folder).is_dir():
        raise InvalidInput(f"reranker {folder}: no such folder")
    return OnnxCrossEncoder(folder)


rerankers.register("onnx", RerankerSpec("onnx", _onnx, help="an ONNX cross-encoder folder"),
                   replace=True)


def load_reranker(spec: str | None) -> Reranker | None:
    """A reranker from `spec` (the `reranker` setting): `NAME:ARGUMENT` for a registered
    reranker, else a folder for `onnx`; None when `spec` is empty."""
    if not spec:
        return None
    name, sep, argument = spec.partition(":")
    if sep and name in rerankers and not Path(spec).is_dir():
        return rerankers.get(name).make(argument)
    return rerankers.get("onnx").make(spec)


def rerank(query: str, candidates: Sequence[Hit], k: int, reranker: Reranker | None) -> list[Hit]:
    """The top k candidates by the reranker's score; each keeps its earlier ranks."""
    if reranker is None:
        raise InvalidInput("--method rerank needs a cross-encoder: pass --reranker FOLDER (an "
                           "ONNX export with model.onnx and tokenizer.json) or set "
                           "PREUVE_RERANKER; none ships with preuve")
    scores = reranker.score(query, [h.text for h in candidates])
    order = sorted(range(len(candidates)), key=lambda i: -scores[i])[:k]
    out = []
    for rank, i in enumerate(order, 1):
        hit = copy.copy(candidates[i])
        hit.scores = {**hit.scores, "rerank": {"rank": rank, "score": round(scores[i], 4)}}
        hit.rank, hit.score = rank, float(scores[i])
        out.append(hit)
    return out
