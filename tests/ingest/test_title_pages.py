"""Title pages at ingest: a passage that only repeats its titles (a chapter's title page,
"Chapter 3 / Pump maintenance") takes the role navigation, so that search and ask leave it
out, unless nothing else of its document would be left: a document made only of a title
stays searchable (`_title_pages_as_navigation` in preuve/ingest/__init__.py, `is_title_only`
in preuve/ingest/navigation.py).

The PDFs are made with fpdf2 with an outline, as LaTeX and Word write one: the outline gives
the headings, so the title page's own lines are the text of a passage. The real ingest
indexes them on both stores.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import chunks_of, open_index

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# pages: each a list of (font size, style, text) and the outline entries (title, level)
# that start on it
MANUAL = [
    ([(24, "B", "Chapter 3"), (24, "B", "Pump maintenance")], [("Pump maintenance", 0)]),
    ([(14, "B", "3.1 Priming the pump"),
      (10.5, "", "Fill the pump body with clean water before the first start, then open the "
                 "vent screw until no air comes out. Pump maintenance starts with a primed "
                 "pump.")],
     [("Priming the pump", 1)]),
    ([(14, "B", "3.2 Draining the pump"),
      (10.5, "", "Drain the pump before frost: open the lower plug and let the water run "
                 "into a bucket. Pump maintenance in winter means a dry housing.")],
     [("Draining the pump", 1)]),
]
COVER = [([(24, "B", "Chapter 9"), (24, "B", "Valve overhaul")], [("Valve overhaul", 0)])]


def build_pdf(pages) -> bytes:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    family = "Helvetica"
    if DEJAVU.is_file():
        family = "DejaVu"
        pdf.add_font(family, "", str(DEJAVU))
        pdf.add_font(family, "B", str(DEJAVU.with_name("DejaVuSans-Bold.ttf")))
    for lines, outline in pages:
        pdf.add_page()
        for title, level in outline:
            pdf.start_section(title, level=level)
        for size, style, text in lines:
            pdf.set_font(family, style, size)
            pdf.multi_cell(0, size * 0.6, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    return bytes(pdf.output())


@pytest.fixture
def title_index(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(build_pdf(MANUAL))
    (folder / "cover.pdf").write_bytes(build_pdf(COVER))
    with open_index(fresh_index) as index:
        report = index.ingest([folder])
    assert report.ok, report.failed
    return fresh_index


def test_chapter_title_page_is_never_returned_by_search_or_ask(title_index):
    chunks = chunks_of(title_index, "manual.pdf")
    (title_page,) = [c for c in chunks if c["page"] == 1]
    assert title_page["text"].split() == ["Chapter", "3", "Pump", "maintenance"]
    assert title_page["role"] == "navigation"
    body = {c["chunk_id"] for c in chunks if c["page"] > 1}
    assert len(body) == 2 and {c["role"] for c in chunks if c["page"] > 1} == {"body"}
    with open_index(title_index) as index:
        hits = index.search("pump maintenance", k=10, as_of=None)
        everything = index.search("pump maintenance", k=10, as_of=None, navigation=True)
        answer = index.ask("What is pump maintenance?", as_of=None)
    assert {h.chunk_id for h in hits} == body
    # the title page does match the question: only its role keeps it out
    assert title_page["chunk_id"] in {h.chunk_id for h in everything}
    assert answer.hits and {h.chunk_id for h in answer.hits} <= body
    assert all(c.get("chunk_id") in body for c in answer.citations)


def test_document_made_only_of_a_title_stays_searchable(title_index):
    (only,) = chunks_of(title_index, "cover.pdf")
    assert only["text"].split() == ["Chapter", "9", "Valve", "overhaul"]
    assert only["role"] == "body"
    with open_index(title_index) as index:
        hits = index.search("valve overhaul", k=3, as_of=None)
    assert hits and hits[0].chunk_id == only["chunk_id"]


def test_a_manual_s_see_also_passage_is_navigation(fresh_index, tmp_path):
    """git-clean(1) in HTML (git-doc 2.39.5) ends on "SEE ALSO / gitignore(5)": a passage of
    three words that sat close to every question about cleaning and ranked first for a
    question about git worktree (trial 39). A passage that only names other manual pages
    is navigation, like a title page."""
    folder = tmp_path / "docs"
    folder.mkdir()
    page = Path(__file__).parents[1] / "fixtures" / "documented" / "git-clean.html"
    (folder / "git-clean.html").write_bytes(page.read_bytes())
    with open_index(fresh_index) as index:
        assert index.ingest([folder]).ok
    chunks = chunks_of(fresh_index, "git-clean.html")
    (see_also,) = [c for c in chunks if c["text"].split()[-1:] == ["gitignore(5)"]
                   and len(c["text"].split()) <= 4]
    assert see_also["role"] == "navigation"
    assert sum(c["role"] == "body" for c in chunks) >= 5
    with open_index(fresh_index) as index:
        hits = index.search("see also gitignore", k=10, as_of=None)
        everything = index.search("see also gitignore", k=10, as_of=None, navigation=True)
    assert see_also["chunk_id"] not in {h.chunk_id for h in hits}
    assert see_also["chunk_id"] in {h.chunk_id for h in everything}
