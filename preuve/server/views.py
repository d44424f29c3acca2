"""What the HTTP API sends: hits, answers, conversation turns and documents as JSON, with
links into this server's viewer and nothing of the server's disk.

Citation links are built once, by `viewer_link`, which `Index.ask`/`Index.chat` are given
(`link=`): the answer text and its citations carry viewer links from the start.
"""

from __future__ import annotations

from urllib.parse import quote

from preuve.models import Document, Hit
from preuve.server.links import strip_file_links


def doc_url(doc_id: str) -> str:
    return quote(doc_id, safe="")


def hit_link(hit: Hit | dict, page=None, start=None, end=None) -> str:
    """Where the page shows a passage: the PDF at its page, else the lines highlighted."""
    h = hit if isinstance(hit, dict) else hit.to_dict()
    page = page if page is not None else h.get("page")
    start = start if start is not None else h.get("start_line")
    end = end if end is not None else h.get("end_line")
    doc = doc_url(h["doc_id"])
    if h.get("kind") == "pdf" or page is not None:
        return f"/files/{doc}" + (f"#page={page}" if page is not None else "")
    if start is not None:
        return f"/passages/{doc}?start={start}&end={end if end is not None else start}"
    return f"/passages/{doc}?chunk={quote(h['chunk_id'], safe='')}"


def view_link(hit: Hit | dict) -> str:
    """Where the page's panel shows a passage: a PDF's page as an image with the passage
    highlighted (`hit_link` keeps `/files/…#page=N` for whoever opens the PDF itself),
    else the viewer of `hit_link`."""
    h = hit if isinstance(hit, dict) else hit.to_dict()
    if h.get("page") is not None and h.get("chunk_id"):
        return (f"/passages/{doc_url(h['doc_id'])}?page={h['page']}"
                f"&chunk={quote(h['chunk_id'], safe='')}")
    return hit_link(h)


def viewer_link(cited) -> str:
    """The `link=` of answers over HTTP: a verified citation's place in the viewer."""
    if cited.passage is None:
        return ""
    return hit_link(cited.passage, cited.page, cited.start_line, cited.end_line)


def public_hit(hit: Hit | dict) -> dict:
    d = dict(hit) if isinstance(hit, dict) else hit.to_dict()
    d.pop("root", None)  # the server's folders are not the caller's business
    d["link"] = hit_link(d)
    d["view"] = view_link(d)
    return d


def public_answer(answer) -> dict:
    """Answer JSON (its links already point into the viewer). Per-word IDFs of the
    judgment are not sent. Unverified text is not sent — the text a verification rejected,
    the sentences the attribution dropped (a model's injected line, a citation of what the
    caller may not read): `reason` and the attribution's numbers say why."""
    d = answer.to_dict()
    d.pop("rejected", None)
    # a word's IDF is counted against every chunk of the index: from it a caller could
    # read how much the index holds beyond what it may read; the found/missing flags stay
    for row in ((d.get("explain") or {}).get("judgment") or {}).get("words", []):
        row.pop("idf", None)
    attribution = (d.get("explain") or {}).get("attribution") or {}
    for row in attribution.get("dropped", []):
        row.pop("sentence", None)
    if answer.refused:
        for row in attribution.get("attributed", []):
            row.pop("sentence", None)
    d["answer"] = strip_file_links(d["answer"])  # a model's own link to a local file
    d["hits"] = [public_hit(h) for h in d["hits"]]
    for c in d.get("citations") or []:  # the cited page in the panel (the link is kept)
        if c.get("link") and c.get("doc_id") and c.get("chunk_id"):
            c["view"] = view_link(c)
    return d


def public_message(message: dict) -> dict:
    """A stored conversation turn: its links were built for the viewer when it was
    answered; any link to the server's disk (a turn stored by an older version) is
    reduced to its label."""
    data = dict(message.get("data") or {})
    citations = [dict(c) for c in data.get("citations") or []]
    for c in citations:
        if str(c.get("link") or "").startswith("file:"):
            c["link"] = ""
    if citations:
        data["citations"] = citations
    return {**message, "content": strip_file_links(message["content"]), "data": data}


def document_dict(doc: Document) -> dict:
    return {"doc_id": doc.doc_id, "path": doc.path, "title": doc.title, "kind": doc.kind,
            "language": doc.language, "access": doc.access, "version": doc.version,
            "effective_from": doc.effective_from, "effective_to": doc.effective_to,
            "size": doc.size, "pages": doc.pages}
