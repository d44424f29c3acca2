"""An upload is durable before it is acknowledged (issue 21 item 10): the journal, the
backup, the new bytes and the folders holding their names are flushed to the disk before
the block that indexes the upload runs."""

from __future__ import annotations

from preuve.server import uploads
from preuve.server.uploads import UploadFolder


def test_the_journal_and_the_new_file_are_fsynced_before_indexing(tmp_path, monkeypatch):
    synced: list[str] = []
    real_fsync = uploads._fsync

    def spying(path):  # the real flush, noting what it flushed
        synced.append(str(path))
        return real_fsync(path)

    monkeypatch.setattr(uploads, "_fsync", spying)
    folder = UploadFolder(tmp_path / "uploads")
    (tmp_path / "uploads").mkdir()
    (tmp_path / "uploads" / "a.md").write_text("old\n", encoding="utf-8")
    staged = folder.stage()
    staged.write_text("new\n", encoding="utf-8")
    with folder.replacing("a.md", staged) as target:
        before_indexing = list(synced)
        assert target.read_text(encoding="utf-8") == "new\n"
    staging = str(tmp_path / "uploads" / ".staging")
    assert any(p.startswith(staging) and p.endswith(".partial") for p in before_indexing)
    assert staging in before_indexing  # the journal's name
    assert any(p.endswith(".old") for p in before_indexing)  # the backup of a.md
    assert str(tmp_path / "uploads") in before_indexing  # a.md's new entry
