"""Uploaded files: checked before they are indexed, replaced so that a crash at any moment
leaves the folder and the index agreeing.

A replacement (or removal) of `uploads/NAME` is journalled in `uploads/.staging/`:

1. the new bytes are staged as `<id>.new` (the route wrote them there);
2. `<id>.journal` records NAME and the backup file `<id>.old`;
3. the current NAME is copied to `<id>.old`, then `<id>.new` renamed over NAME (atomic);
4. NAME is ingested (one transaction); on failure `<id>.old` is renamed back;
5. the backup and the journal are removed.

The journal, the backup, the staged bytes and the folders' entries are fsynced before the
block that indexes runs, so an acknowledged upload survives a power loss as it survives a
killed process.

`recover()` (at start-up, before the server answers) finishes or undoes what a killed
process left: for each journal, the index decides. The file whose bytes have the digest the
index recorded for NAME is the one kept (NAME, else the backup renamed back); a NAME the
index does not hold is removed. Then everything else in `.staging/` is deleted. The viewer
serves a file only while its bytes have that digest (`routes.viewer.indexed_file`), so even between
steps 3 and 4 nobody reads the new bytes under the old label.

On a PostgreSQL index several servers may share, the bytes of each upload also go into the
database (`store.files`, by digest) before it is indexed; a server whose disk does not have
the file shows them from there (the indexed bytes, checked against the digest), so the
folder is only this server's working copy. Uploads and deletions
(`writing()`) take a lock in the database, so that they run one at a time across servers,
and end by removing the bytes no document records any more.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import uuid
import zipfile
from contextlib import contextmanager
from pathlib import Path

from preuve.errors import InvalidInput
from preuve.ingest import FILE_DIGEST
from preuve.ingest.base import ParseError, decode_text
from preuve.ingest.metadata import normalise, split_front_matter
from preuve.models import Document
from preuve.registry import kinds

log = logging.getLogger("preuve.server")

STAGING = ".staging"
MAX_NAME_BYTES = 200  # file systems allow 255 bytes; the staged copy adds nothing to it
MIN_UNZIPPED_CAP = 50 * 1024 * 1024
UNZIPPED_RATIO = 10  # a zip upload may unpack to 10x the upload limit (at least 50 MB)


class UploadRefused(InvalidInput):
    """An upload refused before anything changed; `http_status` says why (400 bad name or
    label, 413 too large, 415 unsupported type, 422 unreadable)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.http_status = self.status = status
        self.message = message


# ------------------------------------------------------------------------- checks
def check_name(name: str) -> None:
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise UploadRefused(400, f"file name too long ({len(name.encode('utf-8'))} bytes "
                                 f"in UTF-8, at most {MAX_NAME_BYTES})")


def check_unzipped_size(staged: Path, name: str, kind: str, upload_limit: int) -> None:
    """A zip-based upload (DOCX) is refused when the sizes its entries declare add up to
    more than it may unpack to: a zip bomb never reaches the parser. (Python's zipfile
    never inflates an entry past its declared size.)"""
    if not kinds.get(kind).zipped:
        return
    cap = max(MIN_UNZIPPED_CAP, UNZIPPED_RATIO * upload_limit)
    try:
        with zipfile.ZipFile(staged) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a zip: the parser reports it as a broken file
    if total > cap:
        raise UploadRefused(413, f"{name}: unpacks to {total / 1e6:.0f} MB (over the "
                                 f"{cap / 1e6:.0f} MB allowed for a {kind.upper()} upload)")


def check_label(staged: Path, name: str, kind: str, access: str | None) -> None:
    """An upload's `access` form field and the label the file declares (front matter)
    must agree: a conflict is refused (400), never resolved silently either way."""
    if access is None or not kinds.get(kind).front_matter:  # `access:` read from the file
        return
    try:
        meta, _, _ = split_front_matter(decode_text(staged.read_bytes()))
        declared = normalise(meta).get("access")
    except (ParseError, ValueError):
        return  # the ingest reports a broken front matter with its reason
    if declared is not None and declared != access:
        raise UploadRefused(400, f"{name}: the file says access: {declared!r} but the "
                                 f"upload asks for access={access!r}; change one of them")


# -------------------------------------------------------------------- the journal
class UploadFolder:
    """`uploads/` and its `.staging/` journal (callers hold the server's write lock and
    `writing()`). `lend` lends an `Index` (the server's pool): when its store keeps files
    (PostgreSQL), uploads' bytes are kept there too, for every server on the database."""

    def __init__(self, folder: Path, lend=None):
        self.folder = folder
        self.staging = folder / STAGING
        self._lend = lend

    @contextmanager
    def _files(self):
        """The store's `files` (None: the folder is where the bytes are)."""
        if self._lend is None:
            yield None
            return
        with self._lend() as index:
            yield index.engine.shared_files

    @contextmanager
    def writing(self):
        """Around an upload or a deletion: on a shared index, one at a time across every
        server on it, ending with the removal of the bytes no document records."""
        with self._files() as files:
            if files is None:
                yield
                return
            with files.exclusive():
                try:
                    yield
                finally:
                    files.sweep()

    def stored(self, doc: Document) -> bytes | None:
        """The bytes `doc` was indexed from as the database keeps them (checked against the
        digest the index records); None: read the file on disk."""
        digest = doc.meta.get(FILE_DIGEST)
        if not digest:
            return None
        with self._files() as files:
            return None if files is None else files.get(digest)

    def stage(self) -> Path:
        """A fresh path in `.staging/` for an upload's bytes."""
        self.staging.mkdir(parents=True, exist_ok=True)
        return self.staging / f"{uuid.uuid4().hex}.new"

    @contextmanager
    def replacing(self, name: str, staged: Path | None):
        """Put `staged` at NAME (None: remove NAME) for the block, which indexes the
        change; if the block raises, NAME is put back as it was."""
        target = self.folder / name
        if staged is not None:
            with self._files() as files:
                if files is not None:  # first: the bytes every server shows
                    files.put(staged.read_bytes())
        entry = uuid.uuid4().hex
        backup = self.staging / f"{entry}.old" if target.exists() else None
        journal = self.staging / f"{entry}.journal"
        self._write_journal(journal, name, backup)
        if backup is not None:
            shutil.copyfile(target, backup)
            _fsync(backup)
        if staged is not None:
            _fsync(staged)
            os.replace(staged, target)
        else:
            target.unlink(missing_ok=True)
        _fsync(self.folder)  # the new name (or its removal) survives a power loss
        try:
            yield target
        except BaseException:
            if backup is not None:
                os.replace(backup, target)
            else:
                target.unlink(missing_ok=True)
            raise
        finally:
            if backup is not None:
                backup.unlink(missing_ok=True)
            journal.unlink(missing_ok=True)

    def _write_journal(self, journal: Path, name: str, backup: Path | None) -> None:
        self.staging.mkdir(parents=True, exist_ok=True)
        partial = journal.with_suffix(".partial")
        partial.write_text(json.dumps({"name": name,
                                       "backup": backup.name if backup else None}))
        _fsync(partial)
        os.replace(partial, journal)
        _fsync(self.staging)  # the journal is on disk before anything it describes moves

    def recover(self, indexed: dict[str, Document]) -> list[str]:
        """Finish or undo replacements a killed server left (see the module docstring);
        `indexed` maps NAME to the document the index holds for `uploads/NAME`. Returns
        what was done, one line per journal."""
        self.sweep()
        done = []
        if not self.staging.is_dir():
            return done
        for journal in sorted(self.staging.glob("*.journal")):
            try:
                entry = json.loads(journal.read_text())
                name, backup = entry["name"], entry["backup"]
            except (OSError, ValueError, KeyError, TypeError):
                continue  # unreadable: removed below with the rest of the staging
            if not name or "/" in name or name.startswith("."):
                continue
            done.append(self._settle(name, backup and self.staging / backup,
                                     indexed.get(name)))
        for leftover in self.staging.iterdir():
            if leftover.is_file() or leftover.is_symlink():
                leftover.unlink()
            else:
                shutil.rmtree(leftover, ignore_errors=True)
        return done

    def sweep(self) -> None:
        """At start-up: the bytes a killed upload or deletion left in the database, which
        no document records, are removed (not on a database this server cannot write)."""
        try:
            with self.writing():
                pass
        except Exception as exc:  # noqa: BLE001 - a read replica: nothing to sweep there
            log.warning("uploaded files: cannot sweep the database (%s)",
                        str(exc).strip().splitlines()[0] if str(exc).strip() else exc)

    def _settle(self, name: str, backup: Path | None, doc: Document | None) -> str:
        target = self.folder / name
        if doc is None:
            target.unlink(missing_ok=True)
            if backup is not None and backup.is_file():
                os.replace(backup, target)  # never indexed either way: keep what was there
                return f"{name}: not in the index, previous file kept"
            return f"{name}: not in the index, removed"
        digest = doc.meta.get(FILE_DIGEST)
        if target.is_file() and _digest(target) == digest:
            return f"{name}: the index holds the new file, kept"
        if backup is not None and backup.is_file() and _digest(backup) == digest:
            os.replace(backup, target)
            return f"{name}: the index holds the previous file, put back"
        log.warning("uploads/%s matches neither the index nor its backup: left as is "
                    "(the viewer will not serve it until it is re-uploaded)", name)
        return f"{name}: matches nothing in the index, left as is"


def _fsync(path: Path) -> None:
    """Flush a file's bytes, or a folder's entries, to the disk (a folder must be synced for
    a rename in it to survive a power loss)."""
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()
