"""Hostile input to ingest: links out of the folder, zip bombs, deep XML, a 10,000-page
PDF, binary junk, invalid UTF-8, a 5 MB line, FIFOs and link loops.

Each bad file gets one clear line naming it and the reason, the rest is indexed and
searchable, what was indexed before stays, and the whole run is bounded in time and memory
(measured on the real CLI in a subprocess). Every test runs on both stores."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import KEYWORD_ONLY, chunks_of, open_index, rows

TIME_BOUND_S = 60
MEMORY_BOUND_MB = 1500
BOMB_XML_BYTES = 80 * 1024 * 1024  # over preuve.ingest.limits.MAX_UNZIPPED_BYTES (64 MB)


# ------------------------------------------------------------------------ file makers
def docx_bytes(build=None) -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph("Un paragraphe ordinaire.")
    if build:
        build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def with_document_xml(source: bytes, write_xml) -> bytes:
    """`source` with word/document.xml replaced by what `write_xml(stream)` writes
    (streamed, so a huge part costs no memory here)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as zin, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename == "word/document.xml":
                with zout.open(info.filename, "w", force_zip64=True) as stream:
                    write_xml(stream)
            else:
                zout.writestr(info.filename, zin.read(info.filename))
    return out.getvalue()


_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w='
         b'"http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
_TAIL = b"</w:body></w:document>"
_PARA = b"<w:p><w:r><w:t>Bombe.</w:t></w:r></w:p>"


def zip_bomb_docx(xml_bytes: int) -> bytes:
    """A DOCX whose document.xml inflates to `xml_bytes` of repeated paragraphs."""
    def write(stream):
        stream.write(_HEAD)
        block = _PARA * (1024 * 1024 // len(_PARA))
        for _ in range(xml_bytes // len(block)):
            stream.write(block)
        stream.write(_TAIL)
    return with_document_xml(docx_bytes(), write)


def lying_docx() -> bytes:
    """A DOCX whose zip directory declares document.xml far smaller than it inflates."""
    data = bytearray(with_document_xml(docx_bytes(), lambda s: s.write(
        _HEAD + _PARA * 50_000 + _TAIL)))
    name = b"word/document.xml"
    central = data.index(b"PK\x01\x02" + bytes(24)[:0])  # first central directory entry
    while data[central + 46:central + 46 + len(name)] != name:
        central = data.index(b"PK\x01\x02", central + 4)
    data[central + 24:central + 28] = (1000).to_bytes(4, "little")  # declared size
    local = int.from_bytes(data[central + 42:central + 46], "little")
    data[local + 22:local + 26] = (1000).to_bytes(4, "little")
    return bytes(data)


def deep_xml_docx(depth: int = 100_000) -> bytes:
    return with_document_xml(docx_bytes(), lambda s: s.write(
        _HEAD + b"<w:sdt>" * depth + b"</w:sdt>" * depth + _TAIL))


def laughs_docx() -> bytes:
    entities = '<!ENTITY a "hahahahaha">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    head = _HEAD.replace(b"<w:document", f"<!DOCTYPE w:document [{entities}]><w:document"
                         .encode(), 1)
    return with_document_xml(docx_bytes(), lambda s: s.write(
        head + b"<w:p><w:r><w:t>&j;</w:t></w:r></w:p>" + _TAIL))


def merged_table_docx(rows_: int) -> bytes:
    """A table whose first column is one cell merged down `rows_` rows."""
    def build(document):
        table = document.add_table(rows=rows_, cols=3)
        for i, row in enumerate(table.rows):
            for j, cell in enumerate(row.cells):
                cell.text = "fusionnée" if j == 0 and i == 0 else f"ligne{i} col{j}"
        first = [tr.tc_lst[0] for tr in table._tbl.tr_lst]
        first[0].vMerge = "restart"
        for tc in first[1:]:
            tc.vMerge = "continue"
    return docx_bytes(build)


def many_pages_pdf(pages: int, text: str = "Page") -> bytes:
    """A valid PDF of `pages` pages sharing one content stream, written by hand."""
    content = f"BT /F1 12 Tf 20 100 Td ({text}) Tj ET".encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))
               + b"] /Count %d >>" % pages,
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 3 0 R "
                b"/Resources << /Font << /F1 4 0 R >> >> >>"] * pages
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


# --------------------------------------------------------------------- running the CLI
_MEASURED = """
import json, resource, subprocess, sys, time
started = time.monotonic()
done = subprocess.run([sys.executable, "-m", "preuve", *sys.argv[1:]], capture_output=True,
                      text=True, timeout=300)
print(json.dumps({"rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr,
                  "seconds": time.monotonic() - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def measured_cli(*args: str) -> dict:
    """`python -m preuve ARGS` run by a parent that reports its wall time and peak RSS."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env["PREUVE_EMBEDDER"] = KEYWORD_ONLY
    done = subprocess.run([sys.executable, "-c", _MEASURED, *args], capture_output=True,
                          text=True, env=env, timeout=400, check=True)
    return json.loads(done.stdout)


def public_paths(db, query: str) -> list[str]:
    with open_index(db) as index:
        return [h.path for h in index.search(query, method="bm25", k=20, as_of="none",
                                              audience="public")]


def all_paths(db, query: str) -> list[str]:
    with open_index(db) as index:
        return [h.path for h in index.search(query, method="bm25", k=20, as_of="none")]


# ---------------------------------------------------------------------------- symlinks
def test_links_out_of_the_folder_are_not_followed(fresh_index, tmp_path):
    """Regression (issue 10 item 3): an outside file with a public sidecar, linked into the
    folder, was indexed and served to the public."""
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.md").write_text("# Secret\n\nLe code du coffre est zanzibar.\n")
    (outside / "secret.md.meta.yaml").write_text("access: public\n")
    (outside / "dir" / "plan.md").write_text(f"# Plan\n\n{_FR} Le plan vise Ouagadougou.\n")
    (outside / "dir" / "plan.md.meta.yaml").write_text("access: public\n")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text(
        f"---\naccess: public\n---\n# Guide\n\n{_FR} Un guide banal.\n", encoding="utf-8")
    (folder / "leak.md").symlink_to(outside / "secret.md")
    (folder / "leak.md.meta.yaml").symlink_to(outside / "secret.md.meta.yaml")
    (folder / "copy.md").symlink_to(outside / "secret.md")
    (folder / "copy.md.meta.yaml").write_text("access: public\n")  # a sidecar of its own
    (folder / "linked").symlink_to(outside / "dir")
    (folder / "alias.md").symlink_to(folder / "guide.md")  # inside: still not followed
    # a file of the folder whose sidecar is a link to an outside, public sidecar
    (folder / "note.md").write_text(f"---\naccess: staff\n---\n# Note\n\n{_FR} Un perroquet.\n")
    (folder / "note.md.meta.yaml").symlink_to(outside / "secret.md.meta.yaml")

    with open_index(fresh_index) as index:
        report = index.ingest([folder])
    skipped = {p.path: p.reason for p in report.skipped}
    assert set(skipped) == {"leak.md", "copy.md", "linked/", "alias.md"}
    for name in ("leak.md", "copy.md", "linked/"):
        assert "symbolic link to outside" in skipped[name], skipped
    assert "symbolic link within the folder" in skipped["alias.md"]
    assert [(p.path, "symbolic link" in p.reason) for p in report.failed] == [("note.md", True)]
    assert report.added == ["guide.md"]
    assert [d["path"] for d in rows(fresh_index, "SELECT path FROM documents")] == ["guide.md"]
    for word in ("zanzibar", "Ouagadougou", "perroquet"):
        assert public_paths(fresh_index, word) == []
        assert all_paths(fresh_index, word) == []  # not indexed at all, not only hidden
    assert public_paths(fresh_index, "guide banal") == ["guide.md"]


def test_a_file_named_by_the_caller_may_be_a_link(fresh_index, tmp_path):
    """The rule is about links found inside folders: a path the caller names is theirs."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "memo.md").write_text("# Memo\n\nLe mémo du lundi.\n")
    link = tmp_path / "memo-link.md"
    link.symlink_to(real / "memo.md")
    with open_index(fresh_index) as index:
        report = index.ingest([link])
    assert report.ok and report.added == ["memo.md"] and not report.skipped
    assert all_paths(fresh_index, "mémo lundi") == ["memo.md"]


# ---------------------------------------------------------------------- caps, one by one
def test_pdf_page_cap_is_named_and_configurable(fresh_index, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    (folder / "four.pdf").write_bytes(many_pages_pdf(4, "Rapport trimestriel"))
    with open_index(fresh_index) as index:
        refused = index.ingest([folder], max_pages=3)
        assert [(p.path, p.reason) for p in refused.failed] == [
            ("four.pdf", "4 pages (limit 3 pages; raise it with --max-pages): not parsed")]
        accepted = index.ingest([folder], max_pages=4)
    assert accepted.ok and accepted.added == ["four.pdf"]
    assert [c["page"] for c in chunks_of(fresh_index, "four.pdf")] == [1, 2, 3, 4]


def test_a_plugin_kind_gets_the_caps_it_declares(fresh_index, tmp_path):
    """Issue 22: the caps before parsing were chosen by kind name (docx: zip, pdf: pages),
    so a format a plugin registers was parsed whatever it declared. Now the kind carries
    them: `zipped`, and `pages(data)` against --max-pages."""
    from preuve.ingest.markdown import parse_text
    from preuve.registry import Kind, kinds

    parsed = []

    def parse(data, settings):
        parsed.append(len(data))
        return parse_text(data, settings)

    kinds.register("odt", Kind("odt", parse, (".odt",), zipped=True, binary=True))
    kinds.register("deck", Kind("deck", parse, (".deck",),
                                pages=lambda data: data.count(b"\f") + 1))
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "bomb.odt").write_bytes(zip_bomb_docx(8 * 1024 * 1024))
    (folder / "long.deck").write_bytes(b"Diapositive sur les vacances.\f" * 5)  # 6 pages
    try:
        with open_index(fresh_index) as index:
            refused = index.ingest([folder], max_pages=3)
            reasons = {p.path: p.reason for p in refused.failed}
            assert sorted(reasons) == ["bomb.odt", "long.deck"]
            assert "inflates" in reasons["bomb.odt"] and "zip bomb" in reasons["bomb.odt"]
            assert reasons["long.deck"] == ("6 pages (limit 3 pages; raise it with "
                                            "--max-pages): not parsed")
            assert parsed == []  # neither reached its parser
            accepted = index.ingest([folder], max_pages=6)
            assert accepted.added == ["long.deck"] and len(parsed) == 1
    finally:
        kinds.unregister("odt")
        kinds.unregister("deck")


def test_docx_table_merged_down_many_rows(fresh_index, tmp_path):
    """Regression: python-docx looks a merged cell up row by row (quadratic, then a
    RecursionError past ~1,000 rows): the file failed after minutes."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "table.docx").write_bytes(merged_table_docx(1200))
    with open_index(fresh_index) as index:
        report = index.ingest([folder])
    assert report.ok, report.failed
    texts = [c["text"] for c in chunks_of(fresh_index, "table.docx")]
    assert any("fusionnée | ligne1199 col1 | ligne1199 col2" in t for t in texts)


# ----------------------------------------------------------------------- the corpus
# French function words so that each file's language is detected (and its words stemmed
# like the query's)
_FR = "Le texte est pour la page et les notes de la semaine."
GOOD = {  # file -> a word only it holds
    "guide.md": (f"# Guide\n\n{_FR} La procédure de sauvegarde nocturne.\n", "sauvegarde"),
    "notes.txt": (f"{_FR} Les notes de la réunion budgétaire.\n", "budgétaire"),
    "module.py": (f'"""Calcul des pénalités. {_FR}"""\n\n\ndef penalite(jours):\n'
                  '    return jours * 2\n', "pénalités"),
    "page.html": (f"<html><body><main><h1>Accueil</h1><p>{_FR} Le portail des "
                  "fournisseurs.</p></main></body></html>", "fournisseurs"),
}


def build_hostile(folder: Path) -> dict[str, str]:
    """The hostile files in `folder`; returns file -> a word its error reason must hold."""
    bad: dict[str, str] = {}

    def put(name: str, data: bytes, reason: str) -> None:
        (folder / name).write_bytes(data)
        bad[name] = reason

    put("bomb.docx", zip_bomb_docx(BOMB_XML_BYTES), "zip bomb")
    put("bomb-ratio.docx", zip_bomb_docx(8 * 1024 * 1024), "inflates")
    put("lying.docx", lying_docx(), "corrupt")
    put("deep.docx", deep_xml_docx(), "XML")
    put("laughs.docx", laughs_docx(), "XML")
    put("pages.pdf", many_pages_pdf(10_000), "10000 pages (limit 5000 pages")
    put("junk.md", random.Random(7).randbytes(64 * 1024), "binary")
    put("latin1.txt", "Une note enregistrée en Latin-1.\n".encode("latin-1"), "UTF-8")
    put("latin1.md", "# Été\n\nDéjà vu.\n".encode("latin-1"), "UTF-8")
    put("latin1.py", "# coding: latin-1\nNOM = 'Hélène'\n".encode("latin-1"), "UTF-8")
    put("empty.md", b"", "empty")
    os.mkfifo(folder / "fifo.md")
    bad["fifo.md"] = "not a regular file"
    (folder / "loop-a.md").symlink_to(folder / "loop-b.md")
    (folder / "loop-b.md").symlink_to(folder / "loop-a.md")
    bad["loop-a.md"] = bad["loop-b.md"] = "leads nowhere"
    (folder / "self").symlink_to(folder)
    bad["self/"] = "within the folder"
    if os.getuid() != 0:  # root reads whatever the permissions say
        put("locked.md", b"# Locked\n", "Permission denied")
        os.chmod(folder / "locked.md", 0)
    return bad


def build_tough_but_good(folder: Path) -> dict[str, str]:
    """Files that must be indexed despite their shape; file -> a word they hold."""
    depth = 100_000
    (folder / "nested.html").write_text("<div>" * depth + "<p>profondeur abyssale</p>"
                                        + "</div>" * depth)
    # unclosed inline tags closed by tags never opened: each end tag scanned the stack
    (folder / "unclosed.html").write_text("<p>" + "<b>" * depth + "désordre" + "</i>" * depth)
    (folder / "one-line.txt").write_text(_FR + " mot" * 1_250_000 + " aiguille")  # 5 MB
    (folder / "deep.py").write_text("X = " + "-" * 100_000 + "1\n")  # the parser gives up
    (folder / "table.docx").write_bytes(merged_table_docx(300))
    return {"nested.html": "abyssale", "unclosed.html": "désordre",
            "one-line.txt": "aiguille", "deep.py": "X", "table.docx": "fusionnée"}


@pytest.fixture
def hostile_folder(tmp_path):
    folder = tmp_path / "hostile"
    folder.mkdir()
    for name, (body, _) in GOOD.items():
        (folder / name).write_text(body, encoding="utf-8")
    (folder / "victim.md").write_text(f"# Victime\n\n{_FR} Le texte original du contrat.\n")
    return folder


def test_hostile_corpus(hostile_folder, fresh_index):
    folder, db = hostile_folder, fresh_index
    first = measured_cli("ingest", str(folder), "--index", str(db), "--access", "public")
    assert first["rc"] == 0, first["stderr"]
    before = chunks_of(db, "victim.md")
    assert before and public_paths(db, "contrat original") == ["victim.md"]

    (folder / "victim.md").write_bytes(b"\x00\xff" * 2048)  # a good file turned into junk
    bad = build_hostile(folder) | {"victim.md": "binary"}
    tough = build_tough_but_good(folder)
    run = measured_cli("ingest", str(folder), "--index", str(db), "--access", "public")

    assert run["rc"] == 1  # some files failed
    lines = run["stderr"].splitlines()
    assert all(line.startswith(("error: ", "skipped: ")) for line in lines), lines
    for name, reason in bad.items():
        mine = [line for line in lines if line.split(": ", 2)[1] == name]
        assert len(mine) == 1, (name, mine)
        assert reason.lower() in mine[0].lower(), mine[0]
    assert len(lines) == len(bad), lines  # nothing else complained

    indexed = {d["path"] for d in rows(db, "SELECT path FROM documents")}
    assert indexed == set(GOOD) | set(tough) | {"victim.md"}
    for name, (_, word) in GOOD.items():
        assert name in public_paths(db, word), name
    for name, word in tough.items():
        assert any(word in c["text"] for c in chunks_of(db, name)), name
    assert "one-line.txt" in public_paths(db, "aiguille")
    assert chunks_of(db, "victim.md") == before  # the previous version is kept
    assert public_paths(db, "contrat original") == ["victim.md"]
    longest = max(len(c["text"]) for c in chunks_of(db, "one-line.txt"))
    assert longest < 10_000  # the 5 MB line is cut into passages, not one 5 MB passage

    print(f"hostile corpus: {run['seconds']:.1f} s, peak {run['peak_mb']:.0f} MB")
    assert run["seconds"] < TIME_BOUND_S, run["seconds"]
    assert run["peak_mb"] < MEMORY_BOUND_MB, run["peak_mb"]


def test_a_file_that_became_a_link_leaves_the_index(fresh_index, tmp_path):
    """An index built when links were followed loses the linked file at the next ingest."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nLe code du coffre est zanzibar.\n")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "leak.md").write_text("# Secret\n\nLe code du coffre est zanzibar.\n")
    with open_index(fresh_index) as index:
        assert index.ingest([folder], access="public").added == ["leak.md"]
        (folder / "leak.md").unlink()
        (folder / "leak.md").symlink_to(outside / "secret.md")
        report = index.ingest([folder], access="public")
    assert report.removed == ["leak.md"]
    assert public_paths(fresh_index, "zanzibar") == []
