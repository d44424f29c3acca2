"""What changed between effective-dated versions of a document (issue 24): `preuve diff`
and `ask "what changed ..."`, on the sample's returns policy (v1 → v2) and on a real pair
of releases nobody here wrote (HTTPX's README, 0.27.2 → 0.28.1, tests/data/httpx-readme),
the changes found counted against a plain line diff of the two files; under the caller's
audience and as-of date, on both stores."""

from __future__ import annotations

import difflib
import json
import re
import shutil
from pathlib import Path

import httpx
import pytest
from conftest import (
    AFTER_SWITCH,
    BEFORE_SWITCH,
    HANDBOOK,
    UNLIMITED,
    copy_index,
    open_index,
    run_cli,
)

from preuve.answer.changes import what_changed
from preuve.errors import InvalidInput, NotFound
from preuve.ingest.metadata import split_front_matter
from preuve.server.app import create_app
from preuve.server.runner import ServerThread

HTTPX = Path(__file__).parents[1] / "data" / "httpx-readme"


def plain_hunks(old: Path, new: Path) -> list[tuple[range, range, bool]]:
    """The hunks of a plain line diff of two files' bodies (front matter out): (old line
    numbers, new line numbers, whether only the line breaks changed)."""
    def body(path: Path) -> tuple[list[str], int]:
        text = path.read_text("utf-8")
        _, rest, skipped = split_front_matter(text)
        return rest.split("\n"), skipped

    (a, a_skip), (b, b_skip) = body(old), body(new)
    hunks = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        rewrap = " ".join(a[i1:i2]).split() == " ".join(b[j1:j2]).split()
        hunks.append((range(i1 + 1 + a_skip, i2 + 1 + a_skip),
                      range(j1 + 1 + b_skip, j2 + 1 + b_skip), rewrap))
    return hunks


def lines_of(units) -> set[int]:
    out = set()
    for unit in units:
        where = unit.label.rsplit(":", 1)[1]
        first, _, last = where.partition("-")
        out.update(range(int(first), int(last or first) + 1))
    return out


def check_against_plain_diff(diff, old: Path, new: Path) -> tuple[int, int, int]:
    """Every line a plain diff changes (words, not only line breaks) is inside a reported
    change, and every reported change holds such a line: returns (changes reported, plain
    hunks, hunks that only rewrap)."""
    hunks = plain_hunks(old, new)
    worded = [(a, b) for a, b, rewrap in hunks if not rewrap]
    covered_old = set().union(*(lines_of(c.old) for c in diff.changes))
    covered_new = set().union(*(lines_of(c.new) for c in diff.changes))
    for a, b in worded:
        changed_old = {n for n in a if old.read_text("utf-8").split("\n")[n - 1].strip()}
        changed_new = {n for n in b if new.read_text("utf-8").split("\n")[n - 1].strip()}
        assert changed_old <= covered_old and changed_new <= covered_new, (a, b)
    for change in diff.changes:
        assert any(lines_of(change.old) & set(a) or lines_of(change.new) & set(b)
                   for a, b in worded), change
    return len(diff.changes), len(hunks), len(hunks) - len(worded)


def test_sample_policy_diff_matches_a_plain_diff(index):
    diff = index.versions.diff("handbook/retours-v2.md", since=BEFORE_SWITCH,
                               until=AFTER_SWITCH, audience="public")
    assert (diff.old.path, diff.new.path) == ("handbook/retours-v1.md", "handbook/retours-v2.md")
    found, hunks, rewraps = check_against_plain_diff(
        diff, HANDBOOK / "retours-v1.md", HANDBOOK / "retours-v2.md")
    assert found == hunks - rewraps and found > 3
    delay = next(c for c in diff.changes if "Délai de retour" in c.heading)
    assert ("30", "45") in delay.words()
    old_marks, new_marks = delay.marks()  # what a diff view strikes out and inserts
    assert ["30", True] in old_marks[0] and ["45", True] in new_marks[0]
    assert [" ".join(t for t, _ in unit) for unit in new_marks] == [u.key for u in delay.new]
    # with no --from, the version before the one in force: the same pair
    again = index.versions.diff("handbook/retours-v1.md", until=AFTER_SWITCH)
    assert [c.to_dict() for c in again.changes] == [c.to_dict() for c in diff.changes]


@pytest.fixture
def httpx_index(fresh_index, tmp_path):
    corpus = tmp_path / "httpx"
    corpus.mkdir()
    for name in ("README-0.27.2.md", "README-0.28.1.md"):
        shutil.copy(HTTPX / name, corpus / name)
        shutil.copy(HTTPX / f"{name}.meta.yaml", corpus / f"{name}.meta.yaml")
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
    return fresh_index


def test_a_real_pair_of_releases_matches_a_plain_diff(httpx_index):
    with open_index(httpx_index) as index:
        diff = index.versions.diff("README-0.28.1.md", since="2024-09-01", until="2025-01-01",
                                   audience="public")
    found, hunks, rewraps = check_against_plain_diff(
        diff, HTTPX / "README-0.27.2.md", HTTPX / "README-0.28.1.md")
    # a paragraph only re-wrapped is no change of wording: the plain diff counts it
    assert (found, hunks, rewraps) == (hunks - rewraps, hunks, rewraps) and rewraps >= 1
    assert all("$ pip install" in " ".join(u.text for u in c.new) for c in diff.changes)
    with open_index(httpx_index) as index:
        answer = index.ask("What changed in the HTTPX README since 2024-09-01?",
                           audience="public", as_of="2025-01-01")
        before = index.ask("What changed in the HTTPX README?", audience="public",
                           as_of="2024-10-01")  # 0.28.1 not out yet
    assert not answer.refused and f"{found} passages changed" in answer.answer
    assert {c["path"] for c in answer.citations} == {"README-0.27.2.md", "README-0.28.1.md"}
    assert all(c["valid"] for c in answer.citations)
    assert "is the first" in before.answer and "0.28.1" not in before.answer


BITSTRING = Path(__file__).parents[1] / "data" / "bitstring-manual"
# what every page of the manual repeats: the running header and the chapter/section footers
FURNITURE = re.compile(r"bitstring Documentation, Release \S+|\d+ Chapter 4\. Packing"
                       r"|4\.1\.\s+Compact format strings\s+\d+")


def pdf_lines(path: Path) -> list[str]:
    """A PDF's text as pdfium extracts it, one stripped line a row, pages in order."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    return [line.strip() for page in document
            for line in page.get_textpage().get_text_range().splitlines() if line.strip()]


def test_a_real_pdf_pair_of_releases_against_a_plain_text_diff(fresh_index, tmp_path):
    """bitstring's manual, chapter 4, in releases 3.0.2 and 3.1.5 (tests/data/bitstring-manual):
    the plain diff of the extracted text has 5 hunks, of which 4 only move the running
    header and footers across page breaks; the one change of wording adds the `pad:n` row.
    The diff reports it, and what else it reports is page furniture and sentences re-split
    at a page break: without the furniture, its changes remove no word and add exactly the
    words the plain diff adds."""
    corpus = tmp_path / "bitstring"
    shutil.copytree(BITSTRING, corpus, ignore=shutil.ignore_patterns("*.txt", "LICENSE"))
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
        diff = index.versions.diff("bitstring-manual-3.1.pdf", until="2017-01-01",
                                   audience="public")
    assert (diff.old.path, diff.new.path) == ("bitstring-manual-3.0.pdf",
                                              "bitstring-manual-3.1.pdf")
    old, new = pdf_lines(BITSTRING / "bitstring-manual-3.0.pdf"), pdf_lines(
        BITSTRING / "bitstring-manual-3.1.pdf")
    hunks = [(old[i1:i2], new[j1:j2]) for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, old, new, autojunk=False).get_opcodes() if op != "equal"]
    worded = [(a, b) for a, b in hunks
              if FURNITURE.sub("", " ".join(a)).split() != FURNITURE.sub("", " ".join(b)).split()]
    assert (len(hunks), len(worded)) == (5, 1)
    added = FURNITURE.sub("", " ".join(worded[0][1])).split()
    assert added == "pad:n n zero bits (for use as padding).".split()
    # the reported change holding the added row, and nothing else of wording
    assert any("pad:n n zero bits" in " ".join(u.text for u in c.new) for c in diff.changes)
    from collections import Counter

    def words(units) -> Counter:
        return Counter(FURNITURE.sub("", " ".join(u.text for u in units)).split())

    removed = sum((words(c.old) for c in diff.changes), Counter())
    inserted = sum((words(c.new) for c in diff.changes), Counter())
    assert removed - inserted == Counter() and inserted - removed == Counter(added)
    assert len(diff.changes) == 4  # 1 of wording, 3 of page breaks (docs/quality-loop.md)


def build_format(kind: str, markdown: Path, dest: Path) -> Path:
    """The Markdown version's body as a Word (python-docx) or PDF (fpdf2) document: one
    paragraph per block, list item or heading, with a sidecar of the same dates."""
    meta, body, _ = split_front_matter(markdown.read_text("utf-8"))
    blocks = []
    for block in re.split(r"\n\s*\n", body):
        items = re.split(r"\n(?=- )", block.strip())
        blocks += [" ".join(item.split()) for item in items if item.strip()]
    target = dest / f"{markdown.stem}.{kind}"
    if kind == "docx":
        import docx

        document = docx.Document()
        for text in blocks:
            if text.startswith("#"):
                document.add_heading(text.lstrip("# "), level=text.index(" "))
            else:
                document.add_paragraph(text)
        document.save(target)
    else:
        from fpdf import FPDF

        pdf = FPDF()
        pdf.add_page()
        pdf.set_font("helvetica", size=11)
        for text in blocks:
            pdf.multi_cell(0, 6, text.lstrip("# "))
            pdf.ln(3)
        pdf.output(str(target))
    dates = {k: str(meta[k]) for k in ("effective_from", "effective_to") if meta.get(k)}
    Path(f"{target}.meta.yaml").write_text(json.dumps({
        "title": f"Politique de retours ({kind})", "access": "public",
        "version": str(meta["version"]), **dates}), "utf-8")
    return target


def test_word_and_pdf_versions_find_the_changes_markdown_finds(index, fresh_index, tmp_path):
    expected = index.versions.diff("handbook/retours-v2.md", until=AFTER_SWITCH)
    corpus = tmp_path / "formats"
    corpus.mkdir()
    for kind in ("docx", "pdf"):
        for version in ("retours-v1.md", "retours-v2.md"):
            build_format(kind, HANDBOOK / version, corpus)
    with open_index(fresh_index) as built:
        assert built.ingest([corpus]).ok
        for kind in ("docx", "pdf"):
            diff = built.versions.diff(f"retours-v2.{kind}", until=AFTER_SWITCH,
                                       audience="public")
            assert len(diff.changes) == len(expected.changes), kind
            for mine, markdown in zip(diff.changes, expected.changes, strict=True):
                added = {b for _, b in markdown.words() if b}
                text = " ".join(u.key for u in mine.new)
                assert all(b.rstrip(".") in text for b in added), (kind, added, text)
                label = mine.new[0].label if mine.new else mine.old[0].label
                assert label.startswith("retours-v") and (
                    " p. 1" in label if kind == "pdf" else ":" in label)


@pytest.mark.parametrize("question, subject, since", [
    ("Qu'est-ce qui a changé dans la politique de retours ?", "politique retours", None),
    ("Quels sont les changements de la politique de retours depuis le 2025-06-01 ?",
     "politique retours", "2025-06-01"),
    ("Quelles modifications dans la politique de retours ?", "politique retours", None),
    ("What has changed in the returns policy?", "returns policy", None),
    ("What's new in the expense policy since 2025-01-01?", "expense policy", "2025-01-01"),
    ("Quelles sont les différences entre les versions de la politique de retours ?",
     "politique retours", None),
    # not about versions (the first from evalsets/manuals)
    ("Comment voir les changements d'un paquet avant la mise à jour avec apt-listchanges ?",
     None, None),
    ("Quelles sont les différences entre un retour et un échange ?", None, None),
    ("Combien de jours pour retourner un article ?", None, None),
])
def test_what_changed_questions_are_recognised(question, subject, since):
    found = what_changed(question)
    if subject is None:
        assert found is None
    else:
        assert found.subject == subject
        assert (found.since.isoformat() if found.since else None) == since


def test_ask_what_changed_cites_both_versions(index):
    for question in ("Qu'est-ce qui a changé dans la politique de retours ?",
                     "Quels sont les changements de la politique de retours depuis le "
                     "2025-06-01 ?"):
        answer = index.ask(question, audience="public", as_of=AFTER_SWITCH)
        assert not answer.refused and "passages modifiés" in answer.answer
        paths = {c["path"] for c in answer.citations}
        assert paths == {"handbook/retours-v1.md", "handbook/retours-v2.md"}
        assert all(c["valid"] for c in answer.citations)
        assert "« 30 » → « 45 »" in answer.answer
        assert answer.explain["changes"]["old"]["path"] == "handbook/retours-v1.md"
    # before v2 is in force, v1 is the first: nothing before it, and v2 is not named
    earlier = index.ask("Qu'est-ce qui a changé dans la politique de retours ?",
                        audience="public", as_of=BEFORE_SWITCH)
    assert "la première" in earlier.answer and "retours-v2" not in earlier.answer
    assert [c["path"] for c in earlier.citations] == ["handbook/retours-v1.md"]
    # not change questions: another question on the policy, differences of two things;
    # and a change question about a document with one version is not answered with the
    # changes of another one found further down (the returns policy)
    for question in ("Combien de jours pour retourner un article ?",
                     "Quelles sont les différences entre un retour et un échange ?",
                     "Qu'est-ce qui a changé dans la politique de télétravail ?"):
        plain = index.ask(question, audience="public", as_of=AFTER_SWITCH)
        assert "changes" not in plain.explain, question


POLICY = """---
title: Politique de stationnement
access: {access}
version: "{version}"
effective_from: {start}
{end}---

# Politique de stationnement

Le parking compte {places} places réservées au personnel.
"""


def test_a_version_the_caller_may_not_read_is_never_compared(fresh_index, tmp_path):
    corpus = tmp_path / "p"
    corpus.mkdir()
    (corpus / "parking-v1.md").write_text(POLICY.format(
        access="public", version=1, start="2025-01-01", end="effective_to: 2025-12-31\n",
        places=40), "utf-8")
    (corpus / "parking-v2.md").write_text(POLICY.format(
        access="staff", version=2, start="2026-01-01", end="", places=25), "utf-8")
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
        assert [d.path for d in index.versions.of("parking-v1.md", audience="public")] == [
            "parking-v1.md"]
        with pytest.raises(InvalidInput, match="only one version"):
            index.versions.diff("parking-v1.md", audience="public")
        with pytest.raises(NotFound):  # the same words as for a path that does not exist
            index.versions.diff("parking-v2.md", audience="public")
        question = "Qu'est-ce qui a changé dans la politique de stationnement ?"
        public = index.ask(question, audience="public", as_of="2026-06-01")
        assert "changes" not in public.explain
        assert "25" not in public.answer and "parking-v2" not in json.dumps(
            public.to_dict(), default=str)
        staff = index.ask(question, audience="staff", as_of="2026-06-01")
        assert {c["path"] for c in staff.citations} == {"parking-v1.md", "parking-v2.md"}
        assert "40" in staff.answer and "25" in staff.answer


def test_cli_diff_side_by_side_and_errors(index_path):
    where = ["--index", str(index_path)]
    shown = run_cli("diff", "handbook/retours-v2.md", "--from", BEFORE_SWITCH, "--to",
                    AFTER_SWITCH, "--width", "140", *where)
    assert shown.returncode == 0, shown.stderr
    assert "handbook/retours-v1.md:19-21" in shown.stdout
    row = next(line for line in shown.stdout.splitlines() if "30 jours" in line)
    assert " | " in row and "45 jours" in row  # the two versions side by side
    data = json.loads(run_cli("diff", "handbook/retours-v1.md", "--to", AFTER_SWITCH,
                              "--json", *where).stdout)
    hunks = plain_hunks(HANDBOOK / "retours-v1.md", HANDBOOK / "retours-v2.md")
    assert len(data["changes"]) == len(hunks)
    for args, code, said in ((["--from", AFTER_SWITCH, "--to", BEFORE_SWITCH], 2, "after"),
                             (["--to", "yesterday"], 2, "not a date"),
                             (["--to", BEFORE_SWITCH], 2, "first version"),
                             (["--from", "2020-01-01"], 3, "no version in force")):
        bad = run_cli("diff", "handbook/retours-v2.md", *args, *where)
        assert bad.returncode == code and said in bad.stderr, (args, bad.stderr)
        assert "Traceback" not in bad.stderr
    single = run_cli("diff", "handbook/conges.md", *where)
    assert single.returncode == 2 and "only one version" in single.stderr
    missing = run_cli("diff", "handbook/nope.md", *where)
    assert missing.returncode == 3 and "no such document" in missing.stderr
    staff_only = run_cli("diff", "handbook/escalade-retours.md", *where,
                         env={"PREUVE_AUDIENCE": "public"})  # as a public caller
    assert staff_only.returncode == 3 and staff_only.stderr == missing.stderr.replace(
        "handbook/nope.md", "handbook/escalade-retours.md")


def test_over_http_both_versions_link_into_the_viewer(sqlite_index_path, tmp_path):
    path = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    app = create_app(path, {"api_keys": {"pub": "public"}, **UNLIMITED})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        r = http.post("/ask", headers={"X-API-Key": "pub"}, json={
            "question": "Qu'est-ce qui a changé dans la politique de retours ?",
            "as_of": AFTER_SWITCH})
        assert r.status_code == 200, r.text
        answer = r.json()
        links = {c["link"].split("?")[0] for c in answer["citations"]}
        assert links == {"/passages/retours-v1", "/passages/retours-v2"}
        assert "file:" not in json.dumps(answer) and str(tmp_path) not in json.dumps(answer)
        assert answer["explain"]["changes"]["changes"]
        for link in {c["link"] for c in answer["citations"]}:
            assert http.get(link, headers={"X-API-Key": "pub"}).status_code == 200
