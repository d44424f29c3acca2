"""The audience boundary as a property: for random documents, labels, dates and queries,
no channel gives a caller anything of a document it may not read.

Each document carries a secret word (in its text and its file name) that no query ever
contains, and a query word that finds it. A real server answers every route for callers of
three audiences (and the MCP tools answer theirs); the bytes of every response, headers
included, must hold no secret word of a document outside the caller's labels. Asking for
an unreadable document by id (or citing it in feedback) must look exactly like asking for
one that does not exist; feedback read back holds only the caller's own."""

from __future__ import annotations

import datetime as dt
import json

import httpx
from conftest import KEYWORD_ONLY, UNLIMITED
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preuve import Index
from preuve.server.app import create_app
from preuve.server.mcp import Tools
from preuve.server.runner import ServerThread

LABELS = ["public", "staff", "rh", None]  # None: no label, the operator's only
AUDIENCES = ["public", "staff", "rh"]
KEYS = {"k-public": "public", "k-staff": "staff", "k-rh": "rh", "k-admin": "admin",
        "k-public-2": "public"}  # another caller of the same audience
COMMON = "facture congé retour délai badge atelier".split()
DAY = dt.date(2026, 6, 1)


def readable(label: str | None, audience: str) -> bool:
    return label is not None and label in ("public", audience)


documents = st.lists(
    st.tuples(st.sampled_from(LABELS),
              st.sampled_from(["md", "py"]),
              st.one_of(st.none(), st.integers(-200, 200)),   # effective_from, days from DAY
              st.integers(0, 400),                            # length of validity, days
              st.lists(st.sampled_from(COMMON), min_size=3, max_size=12)),
    min_size=3, max_size=8)


def write_corpus(folder, docs) -> list[dict]:
    folder.mkdir(parents=True)
    made = []
    for i, (label, kind, start, days, words) in enumerate(docs):
        secret, query = f"sb{i}zx", f"qa{i}zx"
        name = f"d{i}_{secret}.{kind}"
        front = {"access": label}
        if start is not None:
            begin = DAY + dt.timedelta(days=start)
            front |= {"effective_from": begin.isoformat(),
                      "effective_to": (begin + dt.timedelta(days=days)).isoformat()}
        body = f"{' '.join(words)} {query} {secret} {' '.join(reversed(words))}."
        if kind == "md":
            meta = "".join(f"{k}: {'null' if v is None else v}\n" for k, v in front.items())
            text = f"---\n{meta}---\n# Titre {i}\n\n{body}\n"
        else:
            sidecar = "".join(f"{k}: {'null' if v is None else v}\n" for k, v in front.items())
            (folder / f"{name}.meta.yaml").write_text(sidecar, encoding="utf-8")
            text = f'def handle_{query}():\n    """{body}"""\n    return "{secret}"\n'
        (folder / name).write_text(text, encoding="utf-8")
        made.append({"label": label, "secret": secret, "query": query, "name": name})
    return made


def scan(response: httpx.Response) -> str:
    return response.text + json.dumps(dict(response.headers))


def calls(client: httpx.Client, key: str, made: list[dict], doc_ids: list[str]):
    """Every channel a caller has, each response once (the caller's own words removed)."""
    h = {"X-API-Key": key}
    for doc in made:
        for as_of in ("none", DAY.isoformat()):
            q = f"{doc['query']} {COMMON[0]}"
            body = {"query": q, "as_of": as_of, "k": 20}
            yield client.post("/search", json=body, headers=h), q
            yield client.post("/where", json={"subject": q, "as_of": as_of}, headers=h), q
            yield client.post("/compare", json={"question": q, "as_of": as_of}, headers=h), q
            ask = {"question": q, "as_of": as_of}
            yield client.post("/ask", json=ask, headers=h), q
            yield client.post("/ask", json=ask | {"stream": True}, headers=h), q
        opened = client.post("/conversations", headers=h)
        yield opened, ""
        if opened.status_code < 300:
            cid = opened.json()["id"]
            q = doc["query"]
            yield client.post(f"/conversations/{cid}/messages", json={"question": q},
                              headers=h), q
            yield client.get(f"/conversations/{cid}", headers=h), q
        feedback = {"question": doc["query"], "answer": "a", "verdict": "wrong",
                    "citations": [{"path": doc["name"], "label": doc["name"]}]}
        yield client.post("/feedback", json=feedback, headers=h), doc["name"]
    yield client.get("/documents", headers=h), ""
    yield client.get("/metrics", headers=h), ""
    yield client.get("/me", headers=h), ""
    for doc_id in doc_ids:
        yield client.get(f"/files/{doc_id}", headers=h), doc_id
        yield client.get(f"/passages/{doc_id}", params={"chunk": f"{doc_id}:0"},
                         headers=h), doc_id


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(docs=documents)
def test_no_channel_returns_what_the_caller_may_not_read(docs, store_kind, new_location,
                                                        tmp_path_factory):
    folder = tmp_path_factory.mktemp("boundary") / "docs"
    made = write_corpus(folder, docs)
    location = new_location(store_kind)
    with Index(location, embedder=KEYWORD_ONLY) as index:
        report = index.ingest([folder])
        assert report.ok, report.failed
        doc_ids = {d.path: d.doc_id for d in index.documents()}
    ids = [doc_ids[d["name"]] for d in made]
    app = create_app(location, {"api_keys": KEYS, "upload_dir": str(folder.parent / "up"),
                                **UNLIMITED})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=60) as client:
        for audience in AUDIENCES:
            key = next(k for k, v in KEYS.items() if v == audience)
            hidden = [d["secret"] for d in made if not readable(d["label"], audience)]
            for response, echo in calls(client, key, made, ids):
                assert response.status_code < 500, (response.request.url, response.text)
                text = scan(response).replace(echo, "") if echo else scan(response)
                leaked = [s for s in hidden if s in text]
                assert not leaked, (audience, response.request.url, leaked, text[:500])
            # an unreadable document looks exactly like one that does not exist
            for doc, doc_id in zip(made, ids, strict=True):
                if readable(doc["label"], audience):
                    continue
                for route in ("/files/", "/passages/"):
                    real = client.get(route + doc_id, headers={"X-API-Key": key})
                    none = client.get(route + "0" * len(doc_id), headers={"X-API-Key": key})
                    assert (real.status_code, real.text.replace(doc_id, "ID")) == \
                        (none.status_code, none.text.replace("0" * len(doc_id), "ID"))
                cited = [client.post("/feedback", headers={"X-API-Key": key}, json={
                    "question": "q", "answer": "a", "verdict": "right",
                    "citations": [{"path": path, "label": "L"}]}) for path in (
                    doc["name"], "absent.md")]
                assert (cited[0].status_code, cited[0].text.replace(doc["name"], "P")) == \
                    (cited[1].status_code, cited[1].text.replace("absent.md", "P"))
        # feedback is read back by its giver only: once every audience has given some, no
        # key reads a citation (whose path holds the secret) of a document it may not read
        for key, audience in KEYS.items():
            if audience == "admin":
                continue
            hidden = [d["secret"] for d in made if not readable(d["label"], audience)]
            given = client.get("/feedback", headers={"X-API-Key": key})
            assert given.status_code == 200
            assert not [s for s in hidden if s in scan(given)], (key, given.text[:500])
            assert {i["audience"] for i in given.json()["items"]} <= {audience}
        # a conversation is its opener's: every other key, of any audience, sees only what
        # an id that does not exist shows
        opened = client.post("/conversations", headers={"X-API-Key": "k-public"}).json()["id"]
        client.post(f"/conversations/{opened}/messages", json={"question": made[0]["query"]},
                    headers={"X-API-Key": "k-public"})
        for other in ("k-public-2", "k-staff", "k-rh"):
            h = {"X-API-Key": other}
            real = client.get(f"/conversations/{opened}", headers=h)
            none = client.get(f"/conversations/{'0' * len(opened)}", headers=h)
            assert (real.status_code, real.text.replace(opened, "ID")) == \
                (none.status_code, none.text.replace("0" * len(opened), "ID")), other
            assert client.post(f"/conversations/{opened}/messages", json={"question": "x y"},
                               headers=h).status_code == none.status_code
    for audience in AUDIENCES:
        tools = Tools(location, audience=audience, embedder=KEYWORD_ONLY)
        try:
            hidden = [d["secret"] for d in made if not readable(d["label"], audience)]
            for doc in made:
                q = doc["query"]
                out = json.dumps([tools.search(q, method="bm25", k=20, as_of="none"),
                                  tools.where(q, k=20), tools.ask(q)], ensure_ascii=False)
                assert not [s for s in hidden if s in out], (audience, q)
        finally:
            tools.close()


