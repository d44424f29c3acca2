"""Links for passages and verified citations, and linkify: only valid citations become
Markdown links, the rest of the text is untouched, and linked text still verifies."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preuve.answer import link_for, linkify, parse_citations, verify
from preuve.answer.links import text_fragment
from preuve.models import Hit

GH = "https://github.com/org/repo/blob/0123abc"


def hit(path, start=None, end=None, *, page=None, page_label=None, root="/srv/corpus"):
    return Hit(
        rank=1, score=1.0, chunk_id=f"{path}#{start}-{end}p{page}", doc_id="d", path=path,
        kind="pdf" if page is not None else "code", title="", heading="", page=page,
        page_label=page_label, start_line=start, end_line=end, symbol=None, symbol_kind=None,
        text="…", root=root,
    )


TVA = hit("facturo/tva.py", 14, 16)
RELANCES = hit("facturo/relances.py", 18, 25)
PDF = hit("policies/teletravail.pdf", page=2, page_label="ii")
CONGES = hit("handbook/congés et RTT.md", 3, 9)
PASSAGES = [TVA, RELANCES, PDF, CONGES]


def test_link_for_hits_under_a_repository_url():
    assert link_for(TVA, GH, "") == f"{GH}/facturo/tva.py#L14-L16"
    assert link_for(PDF, GH, "") == f"{GH}/policies/teletravail.pdf#page=2"
    assert link_for(hit("a.py", 7, 7), GH, "") == f"{GH}/a.py#L7"
    assert link_for(hit("a.py", 7, None), GH + "/", "") == f"{GH}/a.py#L7"
    assert link_for(hit("notes.txt"), GH, "") == f"{GH}/notes.txt"


def test_gitlab_range_anchor():
    base = "https://gitlab.com/org/repo/-/blob/0123abc"
    assert link_for(TVA, base, "") == f"{base}/facturo/tva.py#L14-16"
    assert link_for(hit("a.py", 7, 7), base, "") == f"{base}/a.py#L7"


def test_paths_are_percent_encoded():
    assert link_for(CONGES, GH, "") == f"{GH}/handbook/cong%C3%A9s%20et%20RTT.md#L3-L9"
    odd = hit("docs/a#b?(c).md", 1, 2)
    assert link_for(odd, GH, "") == f"{GH}/docs/a%23b%3F%28c%29.md#L1-L2"


def test_local_folder_default_is_a_file_url(tmp_path):
    root = tmp_path / "mon corpus"
    url = link_for(TVA, None, str(root))
    assert url == root.resolve().as_uri() + "/facturo/tva.py#L14-L16"
    assert url.startswith("file:///") and " " not in url
    # without an explicit root, the passage's own root
    assert link_for(TVA, None, "") == Path("/srv/corpus").as_uri() + "/facturo/tva.py#L14-L16"
    # a base that is a plain folder is a local folder too
    assert link_for(PDF, str(root), "/elsewhere") == (
        root.resolve().as_uri() + "/policies/teletravail.pdf#page=2")
    # with nothing at all, a relative link
    assert link_for(hit("a.py", 1, 2, root=""), None, "") == "a.py#L1-L2"


def test_link_for_citations():
    v = verify("facturo/tva.py:15 et tva.py:14-16 [3] [2]", PASSAGES)
    assert v.ok
    links = [link_for(vc, GH, "") for vc in v.citations]
    assert links == [
        f"{GH}/facturo/tva.py#L15",
        f"{GH}/facturo/tva.py#L14-L16",  # the suffix resolved to the passage's full path
        f"{GH}/policies/teletravail.pdf#page=2",
        f"{GH}/facturo/relances.py#L18-L25",  # [n] links its whole passage
    ]
    (c,) = parse_citations("facturo/tva.py:15")
    assert link_for(c, GH, "") == f"{GH}/facturo/tva.py#L15"
    (n,) = parse_citations("[2]")
    with pytest.raises(ValueError):
        link_for(n, GH, "")


def test_printed_page_label_links_to_the_page_index():
    passages = [hit("g.pdf", page=7, page_label="5")]
    v = verify("g.pdf p. 5", passages)
    assert v.ok
    assert link_for(v.citations[0], GH, "") == f"{GH}/g.pdf#page=7"
    # the link's text shows the page index and the printed page, however it was cited
    shown = f"[g.pdf p. 7 (printed 5)]({GH}/g.pdf#page=7)"
    for cited in ("g.pdf p. 5", "g.pdf p. 7", "[1]"):
        assert linkify(cited, verify(cited, passages), GH, passages) == shown, cited
    linked = linkify("g.pdf p. 5", v, GH, passages)
    assert verify(linked, passages).citations[0].passage is passages[0]  # still verifies
    # a page printed as its index, or a range, is shown as cited
    same = [hit("h.pdf", page=3, page_label="3")]
    assert linkify("h.pdf p. 3", verify("h.pdf p. 3", same), GH, same) == \
        f"[h.pdf p. 3]({GH}/h.pdf#page=3)"


def test_linkify_replaces_valid_citations_only():
    answer = ("Le taux est dans `tva.py:14-16` (voir facturo/relances.py:40) et "
              "deux jours [policies/teletravail.pdf p. 2] [3].")
    v = verify(answer, PASSAGES)
    assert not v.ok  # relances.py:40 is outside its passage
    out = linkify(answer, v, GH, PASSAGES)
    assert out == (
        f"Le taux est dans [facturo/tva.py:14-16]({GH}/facturo/tva.py#L14-L16) "
        "(voir facturo/relances.py:40) et deux jours "
        f"[policies/teletravail.pdf p. 2 (printed ii)]({GH}/policies/teletravail.pdf#page=2) "
        f"[policies/teletravail.pdf p. 2 (printed ii)]({GH}/policies/teletravail.pdf#page=2).")


def test_linkify_groups_and_neighbours():
    answer = "A [1, 2]. B [1][3]."
    v = verify(answer, PASSAGES)
    out = linkify(answer, v, GH, PASSAGES)
    t, r, p = (f"[facturo/tva.py:14-16]({GH}/facturo/tva.py#L14-L16)",
               f"[facturo/relances.py:18-25]({GH}/facturo/relances.py#L18-L25)",
               f"[policies/teletravail.pdf p. 2 (printed ii)]"
               f"({GH}/policies/teletravail.pdf#page=2)")
    assert out == f"A [{t}, {r}]. B {t}{p}."


def test_linked_answer_verifies_to_the_same_passages():
    answer = ("Relance: facturo/relances.py:20-22; congés: handbook/congés et RTT.md:3-9; "
              "[1]; (teletravail.pdf, p. 2).")
    v = verify(answer, PASSAGES)
    assert v.ok, v.reasons
    for base in (GH, None):
        out = linkify(answer, v, base, PASSAGES)
        again = verify(out, PASSAGES)
        assert again.ok, again.reasons
        assert [vc.chunk_id for vc in again.citations] == [vc.chunk_id for vc in v.citations]
        # linking twice changes nothing
        assert linkify(out, again, base, PASSAGES) == out


def test_linkify_rewrites_a_models_own_link():
    answer = "Voir [facturo/tva.py:14-16](https://evil.example/x)."
    out = linkify(answer, None, GH, PASSAGES)
    assert out == f"Voir [facturo/tva.py:14-16]({GH}/facturo/tva.py#L14-L16)."


def test_linkify_leaves_everything_else_alone():
    answer = "Rien à citer ici, 10:30, http://x:8080."
    assert linkify(answer, verify(answer, PASSAGES), GH, PASSAGES) == answer


def test_linkify_refuses_a_foreign_verification():
    v = verify("facturo/tva.py:15", PASSAGES)
    with pytest.raises(ValueError):
        linkify("xx facturo/tva.py:15", v, GH, PASSAGES)


def test_linkify_uses_passages_when_the_verification_lost_them():
    answer = "facturo/tva.py:15"
    v = verify(answer, PASSAGES)
    v.citations[0].passage = None
    assert linkify(answer, v, None, PASSAGES) == (
        f"[facturo/tva.py:15]({Path('/srv/corpus').as_uri()}/facturo/tva.py#L15)")


@settings(max_examples=200, database=None)
@given(
    st.lists(st.sampled_from([
        "facturo/tva.py:15", "`facturo/tva.py:14-16`", "[2]", "[policies/teletravail.pdf p. 2]",
        "handbook/congés et RTT.md:4", "facturo/tva.py:99", "nowhere.md:1", "[9]",
        "(teletravail.pdf, p. 2)", " et ", ", ", " Voilà. ", "\n", "10:30",
    ]), min_size=1, max_size=12).map("".join),
    st.sampled_from([GH, None, "https://gitlab.example.org/g/r/-/blob/abc"]),
)
def test_linkify_only_touches_valid_spans(answer, base):
    v = verify(answer, PASSAGES)
    out = linkify(answer, v, base, PASSAGES)
    # the text between valid citations is kept verbatim
    pos = 0
    for vc in sorted(v.valid_citations, key=lambda c: c.citation.span):
        s, e = vc.citation.span
        chunk = answer[pos:s]
        assert out.startswith(chunk)
        out = out[len(chunk):]
        link = f"[{vc.shown_label}]({link_for(vc, base, '')})"
        assert out.startswith(link)
        out = out[len(link):]
        pos = e
    assert out == answer[pos:]
    # and the linked text verifies exactly like the original
    again = verify(linkify(answer, v, base, PASSAGES), PASSAGES)
    assert again.ok == v.ok
    assert [c.valid for c in again.citations] == [c.valid for c in v.citations]


def test_a_local_html_page_is_linked_to_the_quote_s_first_words():
    """A browser opens a local HTML page rendered, where `#L18` finds nothing; and pages
    like makepp's (trial 25) hold a whole manual section on one source line, so the line
    alone tells the reader little. The link carries a text fragment of the quote's first
    words: the browser scrolls to them and highlights them. Not for a forge's URL (its line
    anchors work), code, PDF pages or a quote that opens with code."""
    page = Hit(rank=1, score=1.0, chunk_id="m:1", doc_id="m", path="make/makepp_command.html",
               kind="html", title="", heading="", page=None, page_label=None, start_line=1,
               end_line=1, symbol=None, symbol_kind=None, text="…", root="/srv/docs")
    answer = ("`--dont-build=filename` — Do not build the specified file, even so. "
              "[make/makepp_command.html:1] Le taux [facturo/tva.py:14-16].")
    v = verify(answer, [page, TVA])
    assert v.ok, v.reasons
    out = linkify(answer, v, None, [page, TVA])
    assert ("(file:///srv/docs/make/makepp_command.html#L1:~:text=Do%20not%20build%20the"
            "%20specified%20file%2C%20even%20so)") in out, out
    assert "(file:///srv/corpus/facturo/tva.py#L14-L16)" in out, out  # code: lines
    assert linkify(out, verify(out, [page, TVA]), None, [page, TVA]) == out
    assert ":~:text=" not in linkify(answer, v, GH, [page, TVA])  # a forge's page: lines
    code_first = "`make -k` builds on. [make/makepp_command.html:1]"
    linked = linkify(code_first, verify(code_first, [page]), None, [page])
    assert ":~:text=" not in linked, linked
    assert text_fragment("Le dépôt, co-maintenu — voir") == \
        ":~:text=Le%20d%C3%A9p%C3%B4t%2C%20co%2Dmaintenu"
    # Postfix's null-client notes (trial 27): "Line 3:" opens the quote
    assert text_fragment("Line 3: Send mail as \"user@example.com\"") == \
        ":~:text=Line%203%3A%20Send%20mail%20as"
    # ten words: "This method is called to" is on the page six times (trial 27)
    assert text_fragment("This method is called to process a named character reference of "
                         "the form") == (":~:text=This%20method%20is%20called%20to%20process"
                                         "%20a%20named%20character%20reference")
