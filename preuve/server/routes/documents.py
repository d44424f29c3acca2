"""Document routes: the list a key may read, uploads and deletes (admin keys).

An upload is checked (name, type, size, unpacked size, declared label) before anything
changes, then put in place and indexed under the journal of `uploads.UploadFolder`, so
that a failure or a killed server leaves the folder and the index agreeing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, Form, UploadFile

from preuve.index import Index
from preuve.models import Document
from preuve.registry import kind_of, suffixes
from preuve.server.config import validate_label
from preuve.server.state import Admin, App, Refused, Services, Who
from preuve.server.uploads import (
    UploadRefused,
    check_label,
    check_name,
    check_unzipped_size,
)
from preuve.server.views import document_dict

router = APIRouter(tags=["documents"])
_SAFE_NAME = re.compile(r"^[\w][\w .()+\-]{0,200}$")


def uploaded_documents(index: Index, folder: Path) -> dict[str, Document]:
    """The indexed documents of the upload folder, by file name."""
    return {d.path: d for d in index.documents() if d.root == str(folder)}


@router.get("/documents")
def list_documents(app: App, who: Who):
    """Documents you may read."""
    docs = app.engine(lambda ix: ix.documents(audience=who.audience))
    return {"count": len(docs), "documents": [document_dict(d) for d in docs]}


@router.post("/documents", status_code=201)
def upload_document(app: App, _: Admin, file: Annotated[UploadFile, File()],
                    access: Annotated[str | None, Form(max_length=64)] = None):
    """Upload a file and index it (admin). `access` labels it; a file that declares
    another label in its front matter is refused (400) rather than either label
    winning silently. Refused, with the reason and nothing changed, when too large
    (or unpacking too large), of an unsupported type, or unreadable."""
    if access is not None:
        validate_label(access, "access")
    name = Path((file.filename or "").replace("\\", "/")).name.strip()
    if not name or not _SAFE_NAME.match(name):
        raise UploadRefused(400, "file name missing or not allowed (letters, digits, "
                                 "spaces, . _ - ( ) +; no folders, not hidden)")
    check_name(name)
    kind = kind_of(Path(name))
    if kind is None:
        supported = ", ".join(suffixes())
        raise UploadRefused(415, f"{name}: unsupported file type (supported: {supported})")
    limit = app.settings.max_upload_bytes
    staged = app.uploads.stage()
    try:
        _copy_capped(app, file, staged, name, limit)
        check_unzipped_size(staged, name, kind, limit)
        check_label(staged, name, kind, access)
        with app.pool.write_lock, app.uploads.writing():
            return _ingest_upload(app, staged, name, access or app.settings.upload_access,
                                  limit)
    finally:
        staged.unlink(missing_ok=True)


def _copy_capped(app: Services, file: UploadFile, staged: Path, name: str, limit: int) -> None:
    size = 0
    with open(staged, "wb") as out:
        while chunk := file.file.read(1024 * 1024):
            size += len(chunk)
            if size > limit:
                raise UploadRefused(413, f"{name}: too large (over the "
                                         f"{app.settings.max_upload_mb:g} MB upload limit)")
            out.write(chunk)
    if size == 0:
        raise UploadRefused(400, f"{name}: empty file")


def _ingest_upload(app: Services, staged: Path, name: str, access: str | None,
                   limit: int) -> dict:
    """Put the staged file at uploads/NAME and index it; on any failure the previous
    file (or none) is put back: nothing stored is lost."""
    with app.uploads.replacing(name, staged) as target:
        report = app.engine(lambda ix: ix.ingest([target], access=access, max_bytes=limit))
        if report.failed:
            raise Refused(422, f"{name}: " + "; ".join(p.reason for p in report.failed))
        if report.skipped:
            raise Refused(415, f"{name}: " + "; ".join(p.reason for p in report.skipped))
    doc = app.engine(lambda ix: uploaded_documents(ix, app.upload_dir)[name])
    status = ("added" if report.added else "updated" if report.updated else "unchanged")
    return {"status": status, "chunks": report.chunks, "document": document_dict(doc)}


@router.delete("/documents/{doc_id}")
def delete_document(app: App, who: Admin, doc_id: str):
    """Remove a document and its passages (admin); an uploaded file is deleted too."""
    with app.pool.write_lock, app.uploads.writing():
        doc = app.engine(lambda ix: ix.document(doc_id, audience=who.audience))
        if doc.root == str(app.upload_dir):
            with app.uploads.replacing(doc.path, None):
                app.engine(lambda ix: ix.forget([doc.doc_id], exact_ids=True))
        else:
            app.engine(lambda ix: ix.forget([doc.doc_id], exact_ids=True))
    return {"removed": document_dict(doc)}
