"""The page's viewer: a document's file as it was indexed (PDFs open at `#page=N`), and
its lines with the cited ones highlighted. Only for documents the key may read, and only
while the file's bytes are the ones indexed."""

from __future__ import annotations

import hashlib
import os
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from preuve.errors import Conflict, InvalidInput, NotFound
from preuve.ingest import FILE_DIGEST
from preuve.models import Document
from preuve.server.config import Caller
from preuve.server.i18n import language
from preuve.server.state import App, Refused, Services, Who
from preuve.server.views import doc_url

router = APIRouter(tags=["viewer"])
MAX_PASSAGE_BYTES = 5 * 1024 * 1024
MAX_SERVED_BYTES = 64 * 1024 * 1024  # the viewer reads (and checks) a file whole


def indexed_file(app: Services, who: Caller, doc_id: str) -> tuple[Document, bytes]:
    """A readable document and its file's bytes, only while they are the bytes that
    were indexed (under the label the caller was allowed by): an edit on disk not yet
    re-ingested is 409, never served under the old label."""
    doc = app.engine(lambda ix: ix.document(doc_id, audience=who.audience))
    root = os.path.realpath(doc.root)
    full = os.path.realpath(os.path.join(root, *doc.path.split("/")))
    if not full.startswith(root + os.sep) or not os.path.isfile(full):
        if (kept := app.uploads.stored(doc)) is not None:  # the database's copy (uploads)
            return doc, kept
        raise NotFound("no such document")
    with open(full, "rb") as source:
        data = source.read(MAX_SERVED_BYTES + 1)
    if len(data) > MAX_SERVED_BYTES:
        raise Refused(413, "file too large to display")
    indexed = doc.meta.get(FILE_DIGEST)
    if indexed is None:
        raise Conflict(f"{doc.path} was indexed before file digests were recorded: "
                       "re-ingest it to view it here")
    if hashlib.sha256(data).hexdigest() != indexed:
        raise Conflict(f"{doc.path} changed on disk since it was indexed: it is "
                       "shown again once re-ingested")
    return doc, data


@router.get("/files/{doc_id}")
def get_file(app: App, who: Who, doc_id: str):
    """The source file of a document you may read (PDFs open at `#page=N`), as it
    was indexed."""
    doc, data = indexed_file(app, who, doc_id)
    media = {"pdf": "application/pdf", "html": "text/plain; charset=utf-8",
             "docx": "application/vnd.openxmlformats-officedocument."
                     "wordprocessingml.document"}.get(doc.kind, "text/plain; charset=utf-8")
    name = quote(doc.path.rsplit("/", 1)[-1])
    headers = {"Content-Disposition": f"inline; filename*=utf-8''{name}"}
    if doc.kind != "pdf":  # never run a served file's scripts (the PDF viewer needs none)
        headers["Content-Security-Policy"] = "sandbox"
    return Response(data, media_type=media, headers=headers)


@router.get("/passages/{doc_id}", response_class=HTMLResponse)
def get_passage(request: Request, app: App, who: Who, doc_id: str, start: int | None = None,
                end: int | None = None, chunk: str | None = None):
    """A document's lines with the cited ones highlighted (code, text, Markdown,
    HTML), or the cited passage's text (DOCX, with `chunk`)."""
    if start is not None and (start < 1 or (end is not None and end < start)):
        raise InvalidInput("start must be >= 1 and end >= start")
    lines: list[tuple[int, str, bool]] = []
    passage = None
    if chunk and len(chunk) > 300:
        raise InvalidInput("chunk: not a passage id")
    doc, data = indexed_file(app, who, doc_id)
    if doc.kind in ("pdf", "docx"):
        if chunk:
            passage = app.engine(lambda ix: ix.passage(chunk, audience=who.audience,
                                                       doc_id=doc.doc_id)).text
    else:
        if len(data) > MAX_PASSAGE_BYTES:
            raise Refused(413, "file too large to display")
        text = data.decode("utf-8", errors="replace")
        if chunk and start is None:
            try:
                found = app.engine(lambda ix: ix.passage(chunk, audience=who.audience,
                                                         doc_id=doc.doc_id))
                start, end = found.start_line, found.end_line
            except NotFound:
                pass  # the whole file, nothing highlighted
        last = end if end is not None else start
        for number, line in enumerate(text.splitlines(), 1):
            lines.append((number, line, start is not None and start <= number <= last))
    return app.templates.TemplateResponse(request, "passage.html", {
        "doc": doc, "lines": lines, "passage": passage, "start": start,
        "file_url": f"/files/{doc_url(doc.doc_id)}", "lang": language(request)})
