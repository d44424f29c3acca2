"""Document furniture and structure at ingest (issue 11, items 1, 2 and 7).

A manual generated with fpdf2 the way LaTeX or Word lays one out: a table of contents over
two pages (dot leaders, page numbers), a running header and a page-number footer on every
page, numbered sections set larger than the text, a section that crosses a page break,
words hyphenated at line ends and (in one variant) an outline. (Its ligature character
pdfium already spells out; `clean` is tested on its own for fonts where it does not.) The
real ingest indexes it on both stores; the tests read the index back with SQL and search it.
Also: HTML link lists and Markdown tables of contents, and the pure functions behind them.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import chunks_of, open_index, run_cli

from preuve.ingest.html import link_list_roles
from preuve.ingest.markdown import navigation_spans
from preuve.ingest.navigation import is_navigation
from preuve.ingest.pdftext import (
    Line,
    clean,
    font_headings,
    furniture_key,
    is_page_number,
    join_hyphenated,
    mend_break,
    repeated_edge_keys,
)
from preuve.models import Chunk, Document, Filters
from preuve.store import Changes, open_store

HEADER = "Frobnicator Operations Manual"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FILLER = ("The operator keeps a written log of every shift and signs it before leaving the "
          "plant so that the next team knows what happened during the night.")
# (number, title, outline title, paragraphs); a paragraph is a list of lines as printed
CHAPTERS = [
    ("1", "Getting started", [
        ("1.1", "Unpacking", [["Remove the frobnicator from its crate with two people.",
                               "Keep the crate for the warranty return."]]),
        ("1.2", "Installation", [["The daemon reads its configu-",
                                  "ration from the file named in the service unit.",
                                  "A Wi-",
                                  "Fi network is not needed for the first start."]]),
    ]),
    ("2", "Operation", [
        ("2.1", "Cooling", [[FILLER] for _ in range(8)] + [
            "PAGE BREAK",
            ["The coolant valve opens when the housing reaches forty degrees.",
             "Close the valve by hand only when the pump is stopped."]]),
        ("2.2", "Shutdown", [["Press the red lever for three seconds to stop the rotor.",
                              "The \ufb01rewall of the control unit stays on during shutdown."]]),
    ]),
]


def build_manual(outline: bool) -> bytes:
    """The manual as PDF bytes; `outline` adds bookmarks (fpdf2 `start_section`)."""
    from fpdf import FPDF

    class Manual(FPDF):
        def header(self):
            self.set_font(family, "", 9)
            self.cell(0, 6, HEADER, align="L", new_x="LMARGIN", new_y="NEXT")
            self.ln(6)

        def footer(self):
            self.set_y(-15)
            self.set_font(family, "", 9)
            self.cell(0, 6, f"Page {self.page_no()}", align="C")

    pdf = Manual(format="A4")
    pdf.set_auto_page_break(True, margin=25)
    if DEJAVU.is_file():
        family = "DejaVu"
        pdf.add_font(family, "", str(DEJAVU))
        pdf.add_font(family, "B", str(DEJAVU.with_name("DejaVuSans-Bold.ttf")))
    else:  # core font: no ligature glyph
        family = "Helvetica"
    pdf.set_title("Frobnicator Operations Manual")

    # two pages of contents: every section title many times, as in a long manual
    pdf.add_page()
    pdf.set_font(family, "B", 16)
    pdf.cell(0, 10, "Contents", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, "", 10.5)
    entries = [(f"{c}.{s}", f"Housing cooling, step {s}", 3 + s // 10)
               for c in (1, 2) for s in range(1, 36)]
    for number, title, page in entries:
        pdf.cell(150, 6, f"{number} {title} " + ". " * 30)
        pdf.cell(0, 6, str(page), align="R", new_x="LMARGIN", new_y="NEXT")
    assert pdf.page_no() == 2, "the contents must cover exactly two pages"

    for number, title, sections in CHAPTERS:
        pdf.add_page()
        if outline:
            pdf.start_section(title, level=0)
        pdf.set_font(family, "B", 16)
        pdf.cell(0, 10, f"{number} {title}", new_x="LMARGIN", new_y="NEXT")
        for sub, subtitle, paragraphs in sections:
            if outline:
                pdf.start_section(subtitle, level=1)
            pdf.set_font(family, "B", 13)
            pdf.cell(0, 8, f"{sub} {subtitle}", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font(family, "", 10.5)
            for paragraph in paragraphs:
                if paragraph == "PAGE BREAK":
                    pdf.add_page()
                    continue
                for line in paragraph:
                    text = line if family == "DejaVu" else line.replace("\ufb01", "fi")
                    pdf.multi_cell(0, 5.5, text, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
    return bytes(pdf.output())


def page_of(pdf: bytes, sentence: str) -> int:
    """1-based page where pdfium finds `sentence` (the oracle for page numbers)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            textpage = document[index].get_textpage()
            if sentence in " ".join(textpage.get_text_range().split()):
                return index + 1
    finally:
        document.close()
    raise AssertionError(sentence)


@pytest.fixture(scope="module", params=["outline", "no-outline"])
def manual(request, tmp_path_factory):
    """(pdf bytes, folder holding it as manual.pdf, with outline?)"""
    outline = request.param == "outline"
    data = build_manual(outline)
    folder = tmp_path_factory.mktemp(request.param)
    (folder / "manual.pdf").write_bytes(data)
    return data, folder, outline


@pytest.fixture
def manual_index(manual, fresh_index):
    data, folder, outline = manual
    with open_index(fresh_index) as index:
        report = index.ingest([folder])
    assert report.ok, report.failed
    return fresh_index


def body_chunks(location) -> list[dict]:
    return [c for c in chunks_of(location, "manual.pdf") if c["role"] == "body"]


def test_manual_pdf_has_what_the_tests_need(manual):
    data, _, _ = manual
    # the test document itself: the header on every page, the break where we want it
    assert page_of(data, "The coolant valve opens") == page_of(data, "2.1 Cooling") + 1 == 5
    assert page_of(data, "1.2 Installation") == 3


def test_no_running_header_footer_or_page_number_in_the_index(manual_index):
    chunks = chunks_of(manual_index, "manual.pdf")
    assert chunks
    for chunk in chunks:
        assert HEADER not in chunk["text"], chunk
        assert not re.search(r"\bPage \d+\b", chunk["text"]), chunk
    for chunk in body_chunks(manual_index):
        for line in chunk["text"].split("\n"):
            assert not re.fullmatch(r"\s*\d+\s*", line), chunk


def test_headings_become_heading_paths(manual_index, manual):
    _, _, outline = manual
    by_text = {c["text"]: c for c in body_chunks(manual_index)}
    (unpack,) = [c for t, c in by_text.items() if "Remove the frobnicator" in t]
    (shutdown,) = [c for t, c in by_text.items() if "red lever" in t]
    if outline:  # the outline's titles
        assert unpack["heading"] == "Getting started > Unpacking"
        assert shutdown["heading"] == "Operation > Shutdown"
    else:  # numbered, larger lines
        assert unpack["heading"] == "1 Getting started > 1.1 Unpacking"
        assert shutdown["heading"] == "2 Operation > 2.2 Shutdown"


def test_section_across_a_page_break_cites_each_page(manual_index, manual):
    data, _, outline = manual
    cooling = [c for c in body_chunks(manual_index) if c["heading"].endswith("Cooling")]
    first = page_of(data, "2.1 Cooling")
    after = [c for c in cooling if "coolant valve opens" in c["text"]]
    assert after and {c["page"] for c in after} == {first + 1}
    assert {c["page"] for c in cooling} == {first, first + 1}
    assert all(FILLER.split(".")[0] not in c["text"] for c in after)


def test_contents_pages_are_navigation_and_left_out_of_search(manual_index, store_kind):
    chunks = chunks_of(manual_index, "manual.pdf")
    toc = [c for c in chunks if c["page"] in (1, 2)]
    assert toc and {c["role"] for c in toc} == {"navigation"}
    assert {c["page"] for c in toc} == {1, 2}
    assert all(c["role"] == "body" for c in chunks if c["page"] > 2)
    with open_index(manual_index) as index:
        default = index.search("housing cooling", k=20, as_of=None)
        everything = index.search("housing cooling", k=20, as_of=None, navigation=True)
    assert default and all(h.page > 2 and h.role == "body" for h in default)
    assert {h.page for h in everything if h.role == "navigation"} == {1, 2}


def test_hyphenated_word_is_whole_and_searchable(manual_index):
    with open_index(manual_index) as index:
        hits = index.search("configuration", k=3, as_of=None)
    assert hits and "reads its configuration from the file" in " ".join(hits[0].text.split())
    text = " ".join(" ".join(c["text"].split()) for c in body_chunks(manual_index))
    assert "configu-" not in text and "configu ration" not in text
    assert "A Wi-Fi network" in text  # a capital after the hyphen: a real compound


# ---------------------------------------------------------------- HTML and Markdown


def test_html_link_list_and_markdown_toc_are_navigation(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.html").write_text(
        "<html><body><nav><a href='/'>Home</a></nav><main>\n"
        "<h1>Pump guide</h1>\n<h2>Contents</h2>\n<ul>\n"
        "<li><a href='#prime'>Priming the pump</a></li>\n"
        "<li><a href='#drain'>Draining the pump</a></li>\n"
        "<li><a href='#store'>Storing the pump</a></li>\n</ul>\n"
        "<h2 id='prime'>Priming the pump</h2>\n"
        "<p>Fill the pump body with water before the first start.</p>\n"
        "</main></body></html>\n", encoding="utf-8")
    (folder / "valves.md").write_text(
        "# Valve guide\n\n## Contents\n\n- [Opening the valve](#opening)\n"
        "- [Closing the valve](#closing)\n  - [Closing in winter](#winter)\n\n"
        "## Opening the valve\n\nTurn the valve wheel anticlockwise to open it.\n",
        encoding="utf-8")
    with open_index(fresh_index) as index:
        assert index.ingest([folder]).ok
        html_chunks = chunks_of(fresh_index, "guide.html")
        md_chunks = chunks_of(fresh_index, "valves.md")
        pump = index.search("priming the pump", k=10, as_of=None)
        valve = index.search("opening the valve", k=10, as_of=None)
        valve_all = index.search("opening the valve", k=10, as_of=None, navigation=True)
    (nav,) = [c for c in html_chunks if c["role"] == "navigation"]
    assert nav["text"].split("\n") == ["Priming the pump", "Draining the pump",
                                       "Storing the pump"]
    assert "Fill the pump body" in " ".join(c["text"] for c in html_chunks
                                            if c["role"] == "body")
    (md_nav,) = [c for c in md_chunks if c["role"] == "navigation"]
    assert (md_nav["start_line"], md_nav["end_line"]) == (3, 7)
    assert md_nav["text"].startswith("## Contents")
    assert pump and all(h.role == "body" for h in pump)
    assert valve and all(h.role == "body" for h in valve)
    assert any(h.role == "navigation" and h.path == "valves.md" for h in valve_all)


# ------------------------------------------------------------------ dense retrieval


def test_dense_search_leaves_navigation_out_on_both_stores(fresh_index):
    """A navigation chunk nearest the query is skipped by default, inside the top k."""
    doc = Document(doc_id="d", path="d.md", root="/r", kind="markdown", title="D",
                   language="en", content_hash="h", access="public")
    chunks = [Chunk(text=f"c{i}", ordinal=i, chunk_id=f"d:{i}", doc_id="d", tokens=["c"],
                    text_hash=f"t{i}", start_line=i + 1, end_line=i + 1,
                    role="navigation" if i == 0 else "body") for i in range(3)]
    query = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)
    vectors = [("t0", query), ("t1", np.array([0.8, 0.6, 0, 0], np.float32)),
               ("t2", np.array([0.0, 1.0, 0, 0], np.float32))]
    store = open_store(fresh_index)
    try:
        store.apply(Changes(upserts=[(doc, chunks)]))
        store.put_vectors("m@1", vectors)
        default = store.search_dense(query, "m@1", Filters(), 2)
        everything = store.search_dense(query, "m@1", Filters(navigation=True), 2)
        bm25 = store.search_bm25(["c"], Filters(), 3)
        bm25_all = store.search_bm25(["c"], Filters(navigation=True), 3)
    finally:
        store.close()
    assert [h.chunk_id for h in default] == ["d:1", "d:2"]
    assert [h.chunk_id for h in everything] == ["d:0", "d:1"]
    assert sorted(h.chunk_id for h in bm25) == ["d:1", "d:2"]
    assert sorted(h.chunk_id for h in bm25_all) == ["d:0", "d:1", "d:2"]


# ----------------------------------------------------------------- pure functions


def test_ligatures_and_soft_hyphens():
    assert clean("\ufb01le \ufb02ow e\ufb00ort o\ufb03ce ba\ufb04e") == \
        "file flow effort office baffle"
    assert clean("hy\u00adphen") == "hyphen"


def test_page_numbers_and_furniture_keys():
    for text in ("12", "- 12 -", "Page 3", "page 3 of 40", "iv", "12 / 233", "Page 7 sur 9"):
        assert is_page_number(text), text
    for text in ("12 Monkeys", "Chapter 3", "Debian Reference 2 / 233"):
        assert not is_page_number(text), text
    assert furniture_key("Chapter 3. Setup   42") == furniture_key("Chapter 3. Setup 43")
    assert furniture_key("Debian Reference xx") == furniture_key("Debian Reference iv")
    assert furniture_key("Debian Reference 2 / 233") == furniture_key("Debian Reference 9 / 233")


def test_running_lines_are_those_repeated_at_page_edges():
    pages = [[Line(f"Manual chapter {p}", p, 0.04), Line("Body text that differs", p, 0.5),
              Line(f"{p + 1}", p, 0.95)] for p in range(5)]
    pages[2].append(Line("Body text that differs", 2, 0.5))
    keys = repeated_edge_keys(pages)
    assert furniture_key("Manual chapter 9") in keys
    assert furniture_key("Body text that differs") not in keys  # repeated, but mid-page


def test_hyphen_at_line_end_joined_only_when_plausible():
    words, compounds = {"well", "known", "information"}, {"state-of-the-art"}
    assert mend_break("configu", "ration", words, compounds) == "configuration"
    assert mend_break("infor", "mation.", words, compounds) == "information."
    assert mend_break("Wi", "Fi", words, compounds) == "Wi-Fi"
    assert mend_break("well", "known", words, compounds) == "well-known"
    assert mend_break("state", "of-the-art", words, compounds) == "state-of-the-art"
    assert mend_break("art", "2", words, compounds) == "art-2"
    lines = [Line("reads its configu-", 0), Line("ration file. Next", 0),
             Line("the end of a page con-", 0), Line("tinues here, not su -", 1),
             Line("l, and a hyphen pdfium saw: opera\ufffetion, Wi\ufffeFi", 1)]
    out = join_hyphenated(lines)
    assert [(ln.text, ln.page) for ln in out] == [
        ("reads its configuration", 0), ("file. Next", 0), ("the end of a page continues", 0),
        ("here, not su -", 1), ("l, and a hyphen pdfium saw: operation, Wi-Fi", 1)]


def test_headings_from_type_without_an_outline():
    lines = [Line("2 Operation", 0, 0.1, 16.0, True), Line("2.1 Cooling", 0, 0.2, 11.0, True),
             Line("The valve opens at forty degrees and the pump starts at once.", 0, 0.3, 10.5),
             Line("2.2 Shutdown 12", 0, 0.4, 10.5, True),  # a contents line, not a heading
             Line("1. Press the lever.", 0, 0.5, 10.5, True),  # a sentence
             Line("Text " * 30, 0, 0.6, 10.5)]
    assert font_headings(lines) == {0: (1, "2 Operation"), 1: (2, "2.1 Cooling")}


def test_navigation_blocks():
    assert is_navigation(["Contents", "1 Intro 1", "2 Setup 4"])
    assert is_navigation(["Table des matières", "Introduction . . . . . . 3"])
    assert is_navigation([f"{n} Section {n} . . . . . . . . {n * 2}" for n in range(1, 8)])
    assert is_navigation(["apt-get, 12, 45", "bash, 7-9", "dpkg, 3", "zsh, 100, 102"])
    assert not is_navigation(["The pump starts at 40 degrees.", "It stops at 90."])
    assert not is_navigation(["ssh 22", "http 80", "https 443", "imap 143", "smtp 25"])
    assert not is_navigation(["Index", "An index speeds up the lookup of rows in a table,",
                              "at the cost of slower writes and more disk space used."])


def test_markdown_toc_spans_and_html_link_runs():
    lines = ["## Contents", "", "- [A](#a)", "  - [B](#b)", "", "Body.", "- [C](#c)"]
    assert navigation_spans(lines) == [(0, 4, "navigation"), (5, 6, "body")]
    assert navigation_spans(["- [A](https://x.org)", "- [B](https://y.org)"]) == [
        (0, 1, "body")]  # links to other sites: a reading list, not a table of contents
    assert link_list_roles([False, True, True, True, False, True, True], [False] * 7) == [
        "body", "navigation", "navigation", "navigation", "body", "body", "body"]
    # a bar of links ("[Top][Contents][Index]") is navigation whatever its tags
    assert link_list_roles([False, False, False], [True, False, False]) == [
        "navigation", "body", "body"]


def test_a_pdf_citation_shows_the_printed_page_where_it_differs(sqlite_index_path):
    """teletravail.pdf is labelled i, 1, 2, 3, 4: its page index 2 is printed "1". A reader
    with the printed handbook opened the wrong page (issue 21 item 5): the citation keeps
    the page index (what links open) and shows the printed label beside it."""
    from preuve import Index

    with Index(sqlite_index_path) as index:
        answer = index.ask("Combien de jours de télétravail par semaine ?", audience="public")
        hit = next(h for h in answer.hits if h.path == "handbook/teletravail.pdf"
                   and h.page == 2)
    assert hit.shown_label == "handbook/teletravail.pdf p. 2 (printed 1)"
    assert hit.to_dict()["shown_label"] == hit.shown_label
    cited = next(c for c in answer.citations if c["path"] == "handbook/teletravail.pdf")
    assert cited["page"] == 2 and cited["printed_page"] == "1"
    assert cited["shown_label"] == "handbook/teletravail.pdf p. 2 (printed 1)"
    assert "#page=2" in cited["link"]
    # the answer's own text, as `ask` prints it and --json gives it: the link opens the
    # page index, its text shows the printed page too
    assert re.search(r"\[handbook/teletravail\.pdf p\. 2 \(printed 1\)\]\([^)]*#page=2\)",
                     answer.answer), answer.answer
    shown = run_cli("ask", "Combien de jours de télétravail par semaine ?", "--index",
                    str(sqlite_index_path), "--audience", "public")
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout.split("Sources:")[0]
    assert "[handbook/teletravail.pdf p. 2 (printed 1)](" in text, shown.stdout


def test_a_header_naming_its_section_and_page_number_is_furniture(tmp_path):
    """LaTeX books (lshort-fr.pdf, trial 25) print the current section and the page number
    in the header of odd pages ("4.9 Créer des présentations 109"): a section two pages
    long shows its header once or twice, too few for a repeated key, and the header became
    a passage of its own that search ranked among the first. A short line at the page's
    edge that ends with the page's printed number (or opens with it, from page 10) is
    furniture; a sentence ending with a number is not."""
    from fpdf import FPDF

    sections = [("1.1", "Unpacking"), ("1.2", "Mounting"), ("2.1", "Cooling"),
                ("2.2", "Shutdown"), ("3.1", "Cleaning"), ("3.2", "Storage")]

    class Book(FPDF):
        current = ""

        def header(self):
            self.set_font("Helvetica", "", 9)
            number = self.page_no() + 8  # printed numbers start at 9 (front matter)
            line = f"{number} {HEADER}" if number % 2 == 0 else f"{self.current} {number}"
            self.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
            self.ln(6)

    pdf = Book(format="A4")
    for number, title in sections:
        pdf.current = f"{number} {title}"
        for part in range(2):  # each section over two pages
            pdf.add_page()
            if pdf.page_no() == 1:
                pdf.set_page_label("D", label_start=9)
            pdf.set_font("Helvetica", "", 11)
            for n in range(6):
                pdf.multi_cell(0, 6, f"{title} step {part * 6 + n + 1}: the operator checks "
                                     f"the housing and writes the result down.",
                               new_x="LMARGIN", new_y="NEXT")
                if n == 4:  # mid-page, its own key on every page: text
                    pdf.multi_cell(0, 6, "The whole procedure is described on page 12.",
                                   new_x="LMARGIN", new_y="NEXT")
    (tmp_path / "book.pdf").write_bytes(bytes(pdf.output()))
    index_path = tmp_path / "index.sqlite"
    with open_index(index_path) as index:
        report = index.ingest([tmp_path / "book.pdf"])
    assert report.ok, report.failed
    chunks = chunks_of(index_path, "book.pdf")
    assert {c["page_label"] for c in chunks} >= {"9", "20"}, chunks
    text = "\n".join(c["text"] for c in chunks)
    headers = re.findall(rf"\d\.\d [A-Z]\w+ \d+\b|\b\d+ {HEADER}", text)
    assert not headers, headers
    # the text stays (chunks overlap: a sentence may be in two)
    for _, title in sections:
        for step in range(1, 13):
            assert f"{title} step {step}: the operator" in text, (title, step)
    assert "The whole procedure is described on page 12." in text


def test_no_line_is_lost_when_the_type_makes_it_a_heading():
    """impnattypo's French manual (texlive-lang-french) sets its prose larger than the
    package's listing, which has most of the characters: prose lines and the example
    lines (`\\usepackage[rivers]{impnattypo}`) read as headings, and a heading with
    nothing under it on its page was dropped: four of the ten example lines were in no
    chunk (trial 30). Every example line of the PDF's text is now in a chunk."""
    from preuve.ingest.base import ChunkSettings
    from preuve.ingest.pdf import parse_pdf

    data = (Path(__file__).parents[1] / "fixtures" / "documented"
            / "impnattypo-fr.pdf").read_bytes()
    text = "\n".join(c.text for c in parse_pdf(data, ChunkSettings()).chunks)
    for option in ("hyphenation", "parindent", "lastparline", "nosingleletter",
                   "homeoarchy", "rivers", "frenchchapters"):
        assert f"\\usepackage[{option}]{{impnattypo}}" in text, option


def test_accents_drawn_apart_from_their_letters_are_put_back():
    """expEYES' French programmer's manual (pdfTeX, the old OT1 encoding) draws each accent
    as a glyph of its own before its letter: pdfium read "Entr´ees", "`a", "ˆetre", and no
    accented word of a question met the page (trial 31; the quotes showed the broken
    words). Its page 9 (with the title page, kept whole from the package's PDF) is indexed
    as it reads."""
    from preuve.ingest.base import ChunkSettings
    from preuve.ingest.pdf import parse_pdf

    data = (Path(__file__).parents[1] / "fixtures" / "documented"
            / "expeyes-progman-fr.pdf").read_bytes()
    text = " ".join(" ".join(c.text for c in parse_pdf(data, ChunkSettings()).chunks).split())
    assert "Entrées analogiques" in text
    assert "la borne pin est réglée à 0 ou 1" in text
    assert "dans l’intervalle 0 à 5 V" in text
    assert not re.search(r"[´ˆ¨¸]|`[aeu]", text), re.findall(r".{10}[´ˆ¨¸`].{10}", text)
    # a backtick that code closes is no accent
    assert clean("run `ls -a` or `echo` first") == "run `ls -a` or `echo` first"
    assert clean("na¨ıf, fran¸cais, d´ej`a") == "naïf, français, déjà"


def test_a_title_page_is_not_searched():
    """A manual's cover (its title, author, institution, version: no sentence) is short
    and so near every question about the device in meaning: expEYES' programmer's manual
    ranked first for two of trial 31's questions with its cover. The first page of a
    longer document made of such lines is navigation; the pages after it are body."""
    from preuve.ingest.base import ChunkSettings
    from preuve.ingest.pdf import parse_pdf
    from preuve.ingest.pdftext import is_title_page

    data = (Path(__file__).parents[1] / "fixtures" / "documented"
            / "expeyes-progman-fr.pdf").read_bytes()
    chunks = parse_pdf(data, ChunkSettings()).chunks
    cover = [c for c in chunks if c.page == 1]
    assert cover and any("Manuel du programmeur" in c.text for c in cover)
    assert all(c.role == "navigation" for c in cover)
    assert all(c.role == "body" for c in chunks if c.page == 2)
    # a first page that says something is no title page, nor a later page of titles
    assert not is_title_page(["Installation", "Run the installer and reboot."], 0)
    assert not is_title_page(["A Manual", "Version 2"], 3)
