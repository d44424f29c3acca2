"""The page's viewer: a document's file as it was indexed (PDFs open at `#page=N`); a
cited passage in its place (a PDF page as an image with the passage's boxes, an HTML page's
text, a file's lines, highlighted); a PDF page's image. Only for documents the key may
read (anything else is "no such document", whatever the route), and only while the file's
bytes are the ones indexed."""

from __future__ import annotations

import hashlib
import os
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from preuve.errors import Conflict, InvalidInput, NotFound
from preuve.ingest import FILE_DIGEST
from preuve.ingest.html import html_blocks
from preuve.ingest.manpage import render
from preuve.models import Document
from preuve.server.config import Caller
from preuve.server.i18n import TEXT, language
from preuve.server.pdfpage import WIDTHS, page_view
from preuve.server.sections import html_section
from preuve.server.state import App, Refused, Services, Who
from preuve.server.views import doc_url

router = APIRouter(tags=["viewer"])
MAX_PASSAGE_BYTES = 5 * 1024 * 1024
MAX_SERVED_BYTES = 64 * 1024 * 1024  # the viewer reads (and checks) a file whole
# the viewer's pages run no script at all, and load only this server's images and styles
VIEWER_CSP = "default-src 'none'; img-src 'self'; style-src 'self' 'unsafe-inline'"


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
    if doc.kind == "man":  # a (gzipped) roff page: as `man` prints it, the lines cited
        data = render(data).encode("utf-8")
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
                end: int | None = None, chunk: str | None = None, page: int | None = None):
    """A cited passage in its place: a PDF page (`page`) as an image with the passage
    (`chunk`) highlighted; an HTML document's section as text with the cited lines
    highlighted; a code, text or Markdown file's lines with the cited ones highlighted;
    a DOCX passage's text (`chunk`). The first highlight carries the `#hl` anchor (the
    web page scrolls its frame there); this page runs no script."""
    if start is not None and (start < 1 or (end is not None and end < start)):
        raise InvalidInput("start must be >= 1 and end >= start")
    if page is not None and page < 1:
        raise InvalidInput("page must be >= 1")
    if chunk and len(chunk) > 300:
        raise InvalidInput("chunk: not a passage id")
    doc, data = indexed_file(app, who, doc_id)
    found = None
    if chunk:
        try:
            found = app.engine(lambda ix: ix.passage(chunk, audience=who.audience,
                                                     doc_id=doc.doc_id))
        except NotFound:
            pass  # nothing highlighted
    lang = language(request)
    shown = {"doc": doc, "lang": lang, "t": TEXT[lang], "lines": [], "passage": None,
             "blocks": [], "pdf": None, "file_url": f"/files/{doc_url(doc.doc_id)}"}
    if doc.kind == "pdf":
        shown["pdf"] = pdf_view(doc, data, page or (found.page if found else None) or 1, found)
        shown["file_url"] += f"#page={shown['pdf']['page']}"
    elif doc.kind == "docx":
        shown["passage"] = found.text if found else None
    else:
        if len(data) > MAX_PASSAGE_BYTES:
            raise Refused(413, "file too large to display")
        if found is not None and start is None:
            start, end = found.start_line, found.end_line
        last = end if end is not None else start
        if doc.kind == "html":  # the text as read, never the markup or its scripts
            shown["blocks"] = anchored(html_section(html_blocks(data), start, last))
        else:  # (a manual page's lines as `man` prints them: the lines cited)
            text = render(data) if doc.kind == "man" else data.decode("utf-8", errors="replace")
            shown["lines"] = anchored([(n, line, start is not None and start <= n <= last)
                                       for n, line in enumerate(text.splitlines(), 1)])
    response = app.templates.TemplateResponse(request, "passage.html", shown)
    response.headers["Content-Security-Policy"] = VIEWER_CSP
    return response


def anchored(rows: list[tuple]) -> list[tuple]:
    """Each row (its last item: highlighted or not) with whether it carries the `#hl`
    anchor (the first highlighted row)."""
    first = next((i for i, row in enumerate(rows) if row[-1]), None)
    return [(*row, i == first) for i, row in enumerate(rows)]


def pdf_view(doc: Document, data: bytes, page: int, found) -> dict:
    """The page image's sources, the passage's boxes on it (percentages) and the page's
    printed label where it differs from its index."""
    on_page = found is not None and found.page in (None, page)  # never another page's
    view = page_view(data, page, found.text if on_page else "")
    url = f"/pages/{doc_url(doc.doc_id)}?page={page}&width="
    label = (view.label or "").strip()
    return {"page": page, "ratio": round(view.ratio, 5),
            "printed": label if label and label != str(page) else None,
            "src": url + str(WIDTHS[2]),
            "srcset": ", ".join(f"{url}{w} {w}w" for w in WIDTHS),
            "boxes": [tuple(round(100 * v, 3) for v in box) for box in view.boxes]}


@router.get("/pages/{doc_id}", response_class=Response,
            responses={200: {"content": {"image/png": {}}}})
def get_page_image(app: App, who: Who, doc_id: str, page: int, width: int = WIDTHS[2]):
    """Page `page` (1-based) of a PDF you may read, rendered `width` pixels wide as PNG
    (the viewer's image of a cited page)."""
    doc, data = indexed_file(app, who, doc_id)
    if doc.kind != "pdf":
        raise NotFound("not a PDF")
    image = app.pages.png(doc.meta[FILE_DIGEST], data, page, width)
    return Response(image, media_type="image/png",
                    headers={"Cache-Control": "private, max-age=300"})
