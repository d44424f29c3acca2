"""The viewer's PDF pages and HTML sections, below the browser (tests/server/test_browser.py shows
them in Chromium): a passage's boxes on a real PDF page rendered by pdfium, rotated pages,
the render cache, the section of an HTML page shown around a citation, and the links and
views an answer carries over HTTP."""

from __future__ import annotations

import io

import httpx
import pypdfium2 as pdfium
import pytest
from conftest import HANDBOOK, UNLIMITED, chunks_of, copy_index

from preuve.ingest.html import html_blocks
from preuve.server.app import create_app
from preuve.server.pdfpage import PageCache, page_png, page_view
from preuve.server.runner import ServerThread
from preuve.server.sections import html_section

Image = pytest.importorskip("PIL.Image")  # Pillow comes with fpdf2 (dev): to read the PNG
PDF = (HANDBOOK / "teletravail.pdf").read_bytes()


def search_box(data: bytes, page: int, words: str) -> tuple[float, float]:
    """(left, top) of `words` on the page as fractions, found by pdfium's own search."""
    document = pdfium.PdfDocument(data)
    try:
        pdf_page = document[page - 1]
        textpage = pdf_page.get_textpage()
        searcher = textpage.search(words)
        at, _ = searcher.get_next()
        left, _, _, top = textpage.get_charbox(at)
        width, height = pdf_page.get_size()
        return left / width, 1 - top / height
    finally:
        document.close()


def ink(image, box) -> float:
    """The share of dark pixels of `image` (grey levels) inside `box` (fractions)."""
    left, top, width, height = box
    region = image.crop((int(left * image.width), int(top * image.height),
                         int((left + width) * image.width) + 1,
                         int((top + height) * image.height) + 1))
    return sum(region.histogram()[:128]) / (region.width * region.height)


def test_a_passages_boxes_cover_its_lines_of_text_on_the_page(sqlite_index_path):
    chunk = next(c for c in chunks_of(sqlite_index_path, "handbook/teletravail.pdf")
                 if c["page"] == 2 and "2 jours par semaine" in c["text"])
    view = page_view(PDF, 2, chunk["text"])
    assert view.label == "1" and abs(view.ratio - 841.89 / 595.28) < 1e-3
    assert len(view.boxes) >= 4  # the passage spans several lines, one box each
    tops = [top for _, top, _, _ in view.boxes]
    assert tops == sorted(tops)
    first_left, first_top = search_box(PDF, 2, "Chaque salarié éligible")
    assert any(abs(top - first_top) < 0.01 and abs(left - first_left) < 0.01
               for left, top, _, _ in view.boxes)
    image = Image.open(io.BytesIO(page_png(PDF, 2, 960))).convert("L")
    assert abs(image.width - 960) <= 1 and image.height > image.width
    for box in view.boxes:  # every box holds ink: it is on text
        assert ink(image, box) > 0.03
    # words found on no line of this page: nothing highlighted
    assert page_view(PDF, 2, "Le télétravail depuis l'étranger est limité").boxes == []
    assert page_view(PDF, 2, "").boxes == []


def test_boxes_follow_a_rotated_page(tmp_path):
    """A page turned 90° clockwise: the first line (top left when upright) is shown
    along the right edge, and the box says so."""
    document = pdfium.PdfDocument(PDF)
    document[1].set_rotation(90)
    buffer = io.BytesIO()
    document.save(buffer)
    document.close()
    upright = page_view(PDF, 2, "La présente politique définit les conditions")
    turned = page_view(buffer.getvalue(), 2, "La présente politique définit les conditions")
    (left, top, width, height), = upright.boxes
    (r_left, r_top, r_width, r_height), = turned.boxes
    assert turned.ratio == pytest.approx(1 / upright.ratio)
    assert r_left == pytest.approx(1 - top - height, abs=1e-6)
    assert r_top == pytest.approx(left, abs=1e-6)
    assert (r_width, r_height) == pytest.approx((height, width))
    image = Image.open(io.BytesIO(page_png(buffer.getvalue(), 2, 960))).convert("L")
    assert image.width > image.height  # the rendered page is turned as well
    assert ink(image, turned.boxes[0]) > 0.03  # and the box is on its text


def test_a_word_hyphenated_at_a_line_end_is_boxed_on_both_lines():
    """As the index read it, "supplémentaires" is one word; on the page it is "sup-" at a
    line's end and "plémentaires" on the next: both halves are marked."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=14)
    for line in ("Il faut installer des paquets sup-", "plémentaires pour le système.",
                 "Une autre phrase suit ici."):
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    data = bytes(pdf.output())
    view = page_view(data, 1, "installer des paquets supplémentaires pour le système")
    assert len(view.boxes) == 2
    (left, top, width, _), second = view.boxes
    end_of_sup = search_box(data, 1, "sup")[0] + 0.02  # past "sup" on the first line
    assert left + width >= end_of_sup and second[1] > top
    margin = search_box(data, 1, "Une autre")[0]  # "plémentaires" starts line two
    assert second[0] == pytest.approx(margin, abs=0.005)


def test_rendered_pages_are_cached_by_digest_within_a_byte_limit():
    cache = PageCache()
    first = cache.png("digest-a", PDF, 1, 480)
    assert cache.png("digest-a", b"not read on a hit", 1, 480) is first
    assert cache.size == len(first)
    small = PageCache(limit=len(first) + 1)
    small.png("digest-a", PDF, 1, 480)
    small.png("digest-a", PDF, 2, 480)  # over the limit: the older page goes
    assert list(small._items) == [("digest-a", 2, 480)]
    with pytest.raises(Exception, match="width must be one of"):
        page_png(PDF, 1, 500)
    with pytest.raises(Exception, match="no such page"):
        page_png(PDF, 9, 480)


def test_a_long_html_page_shows_the_section_around_the_citation():
    parts = ["<html><body><main><h1>Manual</h1>"]
    for chapter in range(3):
        parts.append(f"<h2>Chapter {chapter}</h2>")
        for n in range(200):
            parts.append(f"<p>Chapter {chapter} paragraph {n}.</p>\n")
    data = "".join(parts + ["</main></body></html>"]).encode()
    blocks = html_blocks(data)
    target = next(b for b in blocks if b.text == "Chapter 1 paragraph 50.")
    shown = html_section(blocks, target.first, target.last)
    assert shown[0][0].text == "Chapter 1" and shown[-1][0].text == "Chapter 1 paragraph 199."
    assert [b.text for b, hl in shown if hl] == ["Chapter 1 paragraph 50."]
    # a short page is shown whole
    small = html_blocks((HANDBOOK / "it-security.html").read_bytes())
    assert len(html_section(small, 32, 35)) == len(small)
    assert "Lucarne intranet" not in " ".join(b.text for b in small)  # its header is out


def test_a_code_block_keeps_its_lines_for_the_viewer_and_its_text_for_the_index():
    data = (b"<html><body><main><h1>Files</h1><p>Read it:</p>\n<pre>"
            b"<span class='k'>for</span> line <span class='ow'>in</span> f:\n"
            b"    <span class='nb'>print</span>(line)</span>\n<span class='c'># done</span>"
            b"</pre></main></body></html>")
    code = html_blocks(data)[-1]
    assert code.preformatted == "for line in f:\n    print(line)\n# done"
    assert code.text == "for line in f: print(line) # done"  # what the index reads


@pytest.fixture(scope="module")
def http(sqlite_index_path, tmp_path_factory):
    path = copy_index(sqlite_index_path, tmp_path_factory.mktemp("viewer") / "index.sqlite")
    app = create_app(path, {"api_keys": {"k": "public"}, **UNLIMITED})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30,
                                                 headers={"X-API-Key": "k"}) as client:
        yield client


def test_a_pdf_citation_keeps_its_link_and_opens_its_page_in_the_panel(http):
    answer = http.post("/ask", json={"question": "Combien de jours de télétravail par "
                                                 "semaine ?"}).json()
    cited = answer["citations"][0]
    assert cited["link"] == "/files/teletravail#page=2" and cited["printed_page"] == "1"
    assert cited["view"].startswith("/passages/teletravail?page=2&chunk=")
    hit = next(h for h in answer["hits"] if h["page"] == 2)
    assert hit["link"] == "/files/teletravail#page=2" and hit["view"].startswith(
        "/passages/teletravail?page=2&chunk=")
    page = http.get(cited["view"] + "&lang=en")
    assert page.status_code == 200 and "p. 2 (printed 1)" in page.text
    assert page.text.count('class="quote-box"') >= 4 and 'id="hl"' in page.text
    assert "<script" not in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'none'")
    image = http.get("/pages/teletravail?page=2&width=720")
    assert image.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(image.content)).width in (720, 721)
    assert http.get("/pages/conges?page=1").status_code == 404  # not a PDF
    assert http.get("/pages/teletravail?page=99").status_code == 404


def test_the_icon_is_served(http):
    r = http.get("/favicon.ico", headers={"X-API-Key": ""})
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    assert Image.open(io.BytesIO(r.content)).size == (32, 32)


# the refusal reasons the answer pipeline writes (preuve/answer/answerability.py,
# attribution.py, support.py, pipeline.py) as they read when the page's translations were
# written: a reason reworded there needs its rule in i18n.json "reasons" and its line here
# (until then the page shows the French catch-all, "reason_other")
REASONS = [
    "no passage retrieved",
    "the question has no content word to look for",
    "the question names Zorglub, which no passage you may read mentions",
    "best dense evidence 0.712 is below the default floor 0.75",
    "best dense evidence 0.712 is below the calibrated threshold 0.801",
    "the passages hold 40% of the question's weighted words (under 60%; missing: couleur, "
    "directeur) and the dense evidence none is not enough on its own",
    "citation check failed: the answer cites nothing and no passage supports it",
    "citation check failed: handbook/x.md:3 is not a passage you were given",
    "support check failed: the answer only restates the question",
    "support check failed: no sentence is supported by its passage",
    "support check failed: the answer's yes/no rests on a claim no passage supports; shown "
    "without it, the answer could say the opposite",
    "support check failed: the answer's first claim is not supported by any passage "
    "(unsupported); what remains would not answer the question",
    "degenerate answer: the answer repeats a sentence",
    "the generator found no answer in the passages",
]


def test_each_refusal_reason_has_its_french_words():
    """The page shows a refusal's reason in French through the rules of i18n.json (the
    same regular expressions app.js runs): each reason the pipeline writes meets a rule
    of its own, never only the catch-all, and the French keeps the reason's particulars."""
    import re

    from preuve.server.i18n import TEXT

    rules = TEXT["fr"]["reasons"]
    assert TEXT["en"]["reasons"] == [] and TEXT["fr"]["reason_other"]
    for reason in REASONS:
        rule = next((r for r in rules if re.search(r[0], reason)), None)
        assert rule is not None, reason
        found = re.search(rule[0], reason)
        french = re.sub(r"\$(\d)", lambda m, found=found: found.group(int(m.group(1))) or "",
                        rule[1])
        assert french != reason and "passage retrieved" not in french
        for particular in ("Zorglub", "0.712", "couleur, directeur"):
            if particular in reason:
                assert particular in french, (reason, french)
