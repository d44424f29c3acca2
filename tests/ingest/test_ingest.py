"""Parsing and chunking of each format, metadata, and which files a walk picks up.

Every check reads the index the real ingest wrote (SQL on the SQLite file or the PostgreSQL
schema: every test runs on both stores) and compares
positions with the source files themselves: lines for Markdown/HTML/text/code, pages and
printed labels for PDF, the syntax tree for Python.
"""

from __future__ import annotations

import ast
import html
import importlib.util
import re
import unicodedata
from pathlib import Path

import pytest
from conftest import EXAMPLES, HANDBOOK, chunks_of, open_index, rows, run_cli

from preuve import Index
from preuve.ingest.base import ChunkSettings
from preuve.ingest.markdown import SHORT_PASSAGE_WORDS, parse_markdown, parse_text


def norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def source_lines(corpus: Path, path: str) -> list[str]:
    return (corpus / path).read_text("utf-8").split("\n")


def ingest_folder(db, folder: Path, **kwargs):
    """Ingest `folder` into the fresh index `db` (a `fresh_index` location, of either
    store); returns (report, index location)."""
    with open_index(db) as index:
        report = index.ingest([folder], **kwargs)
    return report, db


def build_examples_module():
    """examples/build_examples.py, which holds the text of the PDF and the DOCX."""
    script = EXAMPLES / "build_examples.py"
    if not script.exists():
        pytest.skip("examples/build_examples.py is not there")
    spec = importlib.util.spec_from_file_location("build_examples", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------- Markdown

_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_MD_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def expected_heading_paths(lines: list[str]) -> dict[int, str]:
    """Heading path in force at each 1-based line of a Markdown file (an oracle)."""
    out, stack, fence = {}, [], None
    for number, line in enumerate(lines, 1):
        fence_match = _MD_FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            fence = None if fence == marker else (fence or marker)
        elif not fence:
            match = _MD_HEADING.match(line)
            if match:
                level = len(match.group(1))
                stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, match.group(2))]
        out[number] = " > ".join(t for _, t in stack)
    return out


def assert_lines_hold_text(lines: list[str], chunk: dict) -> None:
    """The chunk's cited lines contain its text, and the range is tight."""
    start, end = chunk["start_line"], chunk["end_line"]
    assert 1 <= start <= end <= len(lines), chunk
    cited = lines[start - 1:end]
    assert norm(chunk["text"]) in norm("\n".join(cited)), (chunk["path"], start, end)
    assert cited[0].strip() and cited[0].strip() in chunk["text"]
    assert cited[-1].strip() and cited[-1].strip() in chunk["text"]


def test_markdown_chunks_cite_exact_lines_and_heading_path(corpus, index_path):
    markdown = sorted(p.name for p in HANDBOOK.glob("*.md"))
    assert len(markdown) >= 5
    for name in markdown:
        path = f"handbook/{name}"
        lines = source_lines(corpus, path)
        headings = expected_heading_paths(lines)
        chunks = chunks_of(index_path, path)
        assert chunks, path
        for chunk in chunks:
            assert chunk["kind"] == "markdown"
            assert_lines_hold_text(lines, chunk)
            assert chunk["heading"] == headings[chunk["start_line"]], (path, chunk["start_line"])
            assert "effective_from:" not in chunk["text"]  # front matter is not content
        # every non-blank body line is in some chunk: nothing is silently dropped
        covered = {n for c in chunks for n in range(c["start_line"], c["end_line"] + 1)}
        closing = lines.index("---", 1) + 1 if lines[0] == "---" else 0
        for number, line in enumerate(lines, 1):
            if number > closing and line.strip() and not _MD_HEADING.match(line):
                assert number in covered, (path, number, line)


def test_markdown_heading_of_a_known_passage(index_path):
    (chunk,) = [c for c in chunks_of(index_path, "handbook/catalogue.md")
                if "original weighted base" in c["text"]]
    assert chunk["heading"] == ("Product catalogue and warranty > Lamp bases > "
                                "LB-1 weighted desk base")


def test_markdown_written_file(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text(
        "---\n"
        "title: Guide\n"
        "access: public\n"
        "---\n"
        "# Guide\n"               # 5
        "\n"
        "Intro paragraph.\n"      # 7
        "\n"
        "## Install\n"            # 9
        "\n"
        "```bash\n"               # 11
        "# not a heading, a shell comment\n"
        "make install\n"
        "```\n"                   # 14
        "\n"
        "### Linux\n"             # 16
        "Use apt.\n"              # 17
        "\n"
        "## Usage\n"              # 19
        "Run it.\n",              # 20
        encoding="utf-8",
    )
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok and report.added == ["guide.md"]
    got = [(c["heading"], c["start_line"], c["end_line"]) for c in chunks_of(db, "guide.md")]
    assert got == [
        ("Guide", 5, 7),
        ("Guide > Install", 9, 14),
        ("Guide > Install > Linux", 16, 17),
        ("Guide > Usage", 19, 20),
    ]
    install = chunks_of(db, "guide.md")[1]
    assert "# not a heading" in install["text"]


def test_markdown_heading_ending_with_hash(fresh_index, tmp_path):
    """Regression: a closing run of # is only stripped after a space ('C#' stays)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lang.md").write_text("# Using C#\n\nIt compiles.\n\n## F# ##\n\nFunctional.\n",
                                    encoding="utf-8")
    _, db = ingest_folder(fresh_index, folder)
    assert [c["heading"] for c in chunks_of(db, "lang.md")] == ["Using C#", "Using C# > F#"]


def test_markdown_and_text_chunks_are_whole_paragraphs():
    """Node.js's API reference (Markdown) was cut in windows of lines: passages began in
    the middle of a sentence ("stdout in excess of that limit without…") or of a code
    block. A chunk now starts where a paragraph, a list item, a code block or a heading
    does; a reStructuredText page's underlined titles are its sections (awscli's topic
    guide: "max_bandwidth" over "-------------")."""
    fixtures = Path(__file__).parents[1] / "fixtures" / "documented"
    lines = (fixtures / "node-intl.md").read_text(encoding="utf-8").split("\n")
    parsed = parse_markdown((fixtures / "node-intl.md").read_bytes(), ChunkSettings())
    inside, fence = set(), False  # lines inside a fenced code block (one longer than a
    for number, line in enumerate(lines, 1):  # chunk is cut by lines)
        if line.lstrip().startswith("```"):
            fence = not fence
        elif fence:
            inside.add(number)
    assert len(parsed.chunks) > 10
    for chunk in parsed.chunks:
        before = lines[chunk.start_line - 2] if chunk.start_line > 1 else ""
        first = lines[chunk.start_line - 1]
        assert chunk.start_line in inside or not before.strip() or re.match(
            r"\s*(?:[-*+]|\d+[.)])\s|\|", first), (chunk.start_line, before, first)  # or a
        # list's item, a table's row (a list or table longer than a chunk is cut between)
    rst = parse_text((fixtures / "aws-s3-config.rst").read_bytes(), ChunkSettings())
    sections = {c.heading for c in rst.chunks}
    assert "Configuration Values > max_bandwidth" in sections, sections
    bandwidth = [c for c in rst.chunks if c.heading.endswith("max_bandwidth")]
    assert bandwidth[0].text.startswith("max_bandwidth\n-------------\n\n**Default** - None")
    click = parse_text((fixtures / "click-shell-completion.rst").read_bytes(), ChunkSettings())
    assert not any(c.text.strip().startswith(".. currentmodule::") for c in click.chunks)
    assert click.chunks[0].heading == "Shell Completion", click.chunks[0]


def test_a_manual_page_rendered_as_text_is_cut_at_its_sections():
    """A manual page as `man` renders it (timeout(1) in French, strtol(3) in French,
    sshd_config(5)): its running header and footer are in no passage, its NAME line is its
    title, and no passage runs from one section into the next (trial 73: strtol's NOTES,
    "…doit positionner errno à 0…", shared a passage with the end of DESCRIPTION); a
    subsection's title ends one too ("   État de fin d'exécution :", its list of codes
    whole in one passage). Only a section of fewer than SHORT_PASSAGE_WORDS words (NAME,
    SYNOPSIS) runs into the next."""
    fixtures = Path(__file__).parents[1] / "fixtures" / "documented"
    titles = {"timeout.1.fr.txt": "timeout - Exécuter une commande avec une limite de temps",
              "strtol.3.fr.txt": "strtol, strtoll, strtoq - Convertir une chaîne en un "
                                 "entier long",
              "sshd_config.5.txt": "sshd_config — OpenSSH daemon configuration file"}
    for name, title in titles.items():
        page = (fixtures / name).read_bytes()
        lines = page.decode().split("\n")
        parsed = parse_text(page, ChunkSettings())
        assert parsed.title == title, (name, parsed.title)
        header, footer = lines[0], next(ln for ln in reversed(lines) if ln.strip())
        starts = {n for n, line in enumerate(lines, 1)
                  if re.match(r"[A-ZÀ-Þ][A-ZÀ-Þ0-9 '’/&,-]+$", line)}  # section titles
        for chunk in parsed.chunks:
            assert header not in chunk.text and footer not in chunk.text, (name, chunk.text)
            inside = {n for n in starts if chunk.start_line < n <= chunk.end_line}
            last = max(inside, default=chunk.start_line)  # the words before the last title
            before = " ".join(lines[chunk.start_line - 1:last - 1]).split()
            assert len(before) < SHORT_PASSAGE_WORDS, (name, chunk.start_line, last)
    codes = parse_text((fixtures / "timeout.1.fr.txt").read_bytes(), ChunkSettings())
    listed = [c for c in codes.chunks if "124    si la commande" in c.text]
    assert listed and "137    si COMMANDE" in listed[0].text, listed
    notes = parse_text((fixtures / "strtol.3.fr.txt").read_bytes(), ChunkSettings())
    errno = next(c for c in notes.chunks if "positionner errno à 0" in c.text)
    assert errno.text.startswith("NOTES"), errno.text


def test_a_word_a_manual_page_hyphenated_at_a_line_s_end_is_whole_again(tmp_path):
    """dig(1) as `man` renders it for a user (hyphenated: trial 86's en5): "The de‐" /
    "fault timeout is 5 seconds" cut "default" in two, so neither the search nor the
    answerer read it, and +timeout's entry lost to +tcp's "The default behavior…". Each
    word cut at a line's end (groff's U+2010) is whole on its first line; every line keeps
    its number, and each passage its lines."""
    page = (Path(__file__).parents[1] / "fixtures" / "documented" / "dig.1.txt").read_bytes()
    lines = page.decode().split("\n")
    cut = [n for n, line in enumerate(lines, 1) if line.rstrip().endswith("\u2010")]
    assert len(cut) > 20, cut  # the fixture is hyphenated
    parsed = parse_text(page, ChunkSettings())
    timeout = next(c for c in parsed.chunks if "+timeout=T" in c.text)
    assert "The default timeout is 5 seconds." in " ".join(timeout.text.split()), timeout.text
    for chunk in parsed.chunks:
        assert "\u2010\n" not in chunk.text, chunk.text
        assert chunk.text.count("\n") <= chunk.end_line - chunk.start_line, chunk
    first = lines[timeout.start_line - 1].split()
    assert timeout.text.split("\n")[0].split()[:1] == first[:1], (timeout.start_line, first)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "dig.1.txt").write_bytes(page)
    with Index(tmp_path / "index.sqlite") as index:
        index.ingest([tmp_path / "docs"])
        answer = index.ask("dig gives up too quickly on a slow server, what's the default "
                           "timeout and how do I raise it?")
    assert answer.answer.startswith("`+timeout=T` —"), answer.answer
    assert "The default timeout is 5 seconds." in answer.answer, answer.answer


def test_a_manual_page_s_option_stays_with_its_description():
    """An option's line and the paragraphs that describe it are one passage when they fit
    in one (trial 76: usermod's "-u, --uid UID" ended one passage and its "…verront leur
    identifiant d'utilisateur automatiquement modifié" opened the next, read with no option
    to belong to). journalctl(1), cryptsetup-luksFormat(8): an entry's paragraphs began
    passages in the middle of `--no-hostname`, `--unit=`, `--user-unit=`."""
    fixtures = Path(__file__).parents[1] / "fixtures" / "documented"
    settings = ChunkSettings()
    for name in ("journalctl.1.txt", "cryptsetup-luksFormat.8.txt"):
        page = (fixtures / name).read_bytes()
        lines = page.decode().split("\n")
        parsed = parse_text(page, settings)
        # every entry: a line at the options' margin and the deeper paragraphs after it
        margin = re.compile(r"^ {7}\S")
        entry_of = {}
        current = None
        for n, line in enumerate(lines, 1):
            if margin.match(line):
                current = n
            elif not line.strip() or line.startswith("        "):
                pass
            else:
                current = None
            entry_of[n] = current
        for chunk in parsed.chunks:
            head = entry_of.get(chunk.start_line)
            if head is None or head == chunk.start_line:
                continue
            # a passage opens inside an entry only when the entry is too long for one
            end = next((n for n in range(head + 1, len(lines) + 1)
                        if entry_of.get(n) != head and lines[n - 1].strip()), len(lines))
            words = sum(len(ln.split()) for ln in lines[head - 1:end - 1])
            assert words > settings.max_words, (name, lines[head - 1].strip(),
                                                chunk.start_line, words)
    journal = parse_text((fixtures / "journalctl.1.txt").read_bytes(), settings)
    hostname = [c for c in journal.chunks if "--no-hostname\n" in c.text]
    assert hostname and all("does not remove occurrences of the hostname" in c.text
                            for c in hostname), hostname


def test_a_code_block_s_fences_count_no_words():
    """Chunk sizes count words, a fenced block's fence lines none: a second pattern of the
    same name once replaced the one `word_count` reads, and every chunk of a page with a
    code block moved."""
    from preuve.ingest.chunking import word_count
    assert word_count("Run:\n```\napt update\n```\nthen reboot.") == 5
    assert word_count("~~~\nmake\n~~~") == 1


def test_a_code_block_longer_than_a_chunk_is_cut_by_its_lines():
    """The Debian Administrator's Handbook shows certbot's whole terminal session (78
    lines) under "…so they make use of it:" (trial 245): a <pre> longer than a chunk was
    cut like prose, "# apt install python3-certbot-apache [...] # certbot --apache aving
    debug log…" on one line, never quoted as the commands it shows. Such a block is cut
    by its lines, each piece fenced as code and within the chunk size."""
    from preuve.ingest.base import ChunkSettings
    from preuve.ingest.chunking import word_count
    from preuve.ingest.html import parse_html

    page = Path(__file__).parents[1] / "fixtures" / "documented" / "handbook-x509-cert.html"
    settings = ChunkSettings()
    chunks = parse_html(page.read_bytes(), settings).chunks
    first = next(c for c in chunks if "python3-certbot-apache" in c.text)
    assert first.text.startswith("```\n# apt install python3-certbot-apache\n[...]\n"
                                 "# certbot --apache\n"), first.text[:200]
    pieces = [c for c in chunks if c.start_line == first.start_line]
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.text.startswith("```\n") and piece.text.endswith("\n```"), piece.text
        assert word_count(piece.text) <= settings.max_words


def test_plain_text_chunks_cite_exact_lines(corpus, index_path):
    lines = source_lines(corpus, "handbook/faq.txt")
    chunks = chunks_of(index_path, "handbook/faq.txt")
    assert chunks and all(c["kind"] == "text" for c in chunks)
    for chunk in chunks:
        assert_lines_hold_text(lines, chunk)
    assert chunks[0]["start_line"] == 1
    assert chunks[-1]["end_line"] == max(n for n, line in enumerate(lines, 1) if line.strip())


def test_line_endings_and_encodings(fresh_index, tmp_path):
    """CRLF files cite the same lines; UTF-16 (with BOM) and UTF-8 with BOM are read."""
    folder = tmp_path / "docs"
    folder.mkdir()
    body = "# Titre\n\nPremière ligne.\n\n## Suite\n\nDeuxième ligne.\n"
    (folder / "crlf.md").write_bytes(body.replace("\n", "\r\n").encode("utf-8"))
    (folder / "utf16.txt").write_bytes("Texte encodé en UTF-16.\n".encode("utf-16"))
    (folder / "bom.md").write_bytes(b"\xef\xbb\xbf---\naccess: public\n---\n# Bom\n\nOk.\n")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok, report.failed
    crlf = chunks_of(db, "crlf.md")
    assert [(c["heading"], c["start_line"], c["end_line"]) for c in crlf] == [
        ("Titre", 1, 3), ("Titre > Suite", 5, 7)]
    assert all("\r" not in c["text"] for c in crlf)
    assert "encodé" in chunks_of(db, "utf16.txt")[0]["text"]
    (bom,) = rows(db, "SELECT access FROM documents WHERE path = 'bom.md'")
    assert bom["access"] == "public"  # the front matter was seen despite the BOM


def test_a_page_in_the_charset_it_declares_is_read(fresh_index, tmp_path):
    """TeXworks' French manual (texworks-help-fr, kept in tests/fixtures/documented) is
    ISO-8859-1 and says so in its <meta http-equiv="Content-Type">: 11 of its 14 pages
    failed ingest as "not valid UTF-8" (trial 24). A page declaring nothing, or declaring a
    charset its bytes are not, still fails with the file and the reason."""
    folder = tmp_path / "docs"
    folder.mkdir()
    page = Path(__file__).parents[1] / "fixtures" / "documented" / "texworks-introduction-fr.html"
    (folder / "introduction.html").write_bytes(page.read_bytes())
    (folder / "undeclared.html").write_bytes(b"<p>Un caf\xe9 sans d\xe9claration.</p>")
    (folder / "mislabelled.html").write_bytes(
        b'<meta charset="utf-8"><p>Un caf\xe9 mal \xe9tiquet\xe9.</p>')
    report, db = ingest_folder(fresh_index, folder)
    text = "\n".join(c["text"] for c in chunks_of(db, "introduction.html"))
    assert "Donald E. Knuth a décidé de créer un nouveau système typographique" in text
    failed = {p.path.rsplit("/", 1)[-1]: p.reason for p in report.failed}
    assert set(failed) == {"undeclared.html", "mislabelled.html"}, report.failed
    assert "not valid UTF-8" in failed["undeclared.html"]
    assert "declares 'utf-8'" in failed["mislabelled.html"]


# -------------------------------------------------------------------------------- HTML

_CHROME = ["Who's who", "Staff handbook", "Search the intranet", "Home / IT support",
           "Legal notice", "Privacy", "extension 4000", "internal use"]


def _strip_tags(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def test_html_main_content_only(index_path):
    chunks = chunks_of(index_path, "handbook/it-security.html")
    assert len(chunks) >= 5
    text = "\n".join(c["text"] for c in chunks)
    for chrome in _CHROME:
        assert chrome not in text, chrome
    assert "at least 14 characters long" in text
    assert "restarts on its own at night" in " ".join(text.split())
    # nor is navigation text findable through the index
    tokens = " ".join(c["tokens"] for c in chunks).split()
    assert "intranet" not in tokens


def test_html_heading_path_and_lines(corpus, index_path):
    lines = source_lines(corpus, "handbook/it-security.html")
    chunks = chunks_of(index_path, "handbook/it-security.html")
    for chunk in chunks:
        assert chunk["heading"].startswith("IT security guide"), chunk["heading"]
        start, end = chunk["start_line"], chunk["end_line"]
        cited = _strip_tags("\n".join(lines[start - 1:end]))
        cited_words = re.findall(r"\w+", cited)
        words = re.findall(r"\w+", chunk["text"])
        assert set(words) <= set(cited_words), (start, end, set(words) - set(cited_words))
        # tight: first and last cited lines carry text of this chunk
        assert re.findall(r"\w+", _strip_tags(lines[start - 1]))[0] in words
        assert re.findall(r"\w+", _strip_tags(lines[end - 1]))[-1] in words
    (password,) = [c for c in chunks if "14 characters" in c["text"]]
    assert password["heading"] == ("IT security guide > Passwords and accounts > "
                                   "Password length and the password manager")
    (usb,) = [c for c in chunks if "USB storage drives" in c["text"]]
    assert usb["heading"] == "IT security guide > Laptops and phones > USB drives"


def test_html_without_main_drops_scripts_nav_and_footer(fresh_index, tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "page.html").write_text(
        "<html><head><title>Kiosk</title><style>.x{color:red}</style></head>\n"
        "<body>\n"
        "<nav><a href='/'>Accueil du portail</a></nav>\n"
        "<h1>Horaires &amp; accès</h1>\n"
        "<p>Le bureau ouvre à 7 h 30.</p>\n"
        "<script>var secretToken = 'zzz';</script>\n"
        "<h2>Week-end</h2>\n"
        "<p>Fermé le dimanche.</p>\n"
        "<footer>Mentions légales</footer>\n"
        "</body></html>\n",
        encoding="utf-8",
    )
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok
    chunks = chunks_of(db, "page.html")
    text = "\n".join(c["text"] for c in chunks)
    for absent in ("Accueil du portail", "secretToken", "color", "Mentions légales"):
        assert absent not in text
    assert [(c["heading"], c["start_line"], c["end_line"]) for c in chunks] == [
        ("Horaires & accès", 4, 5),
        ("Horaires & accès > Week-end", 7, 8),
    ]


def test_the_apache_manual_s_menus_and_language_list_are_furniture(fresh_index, tmp_path):
    """Trial 17 (apache2-doc, the httpd 2.4 manual in English and French): "Available
    Languages: en | fr | ja | ko | tr" ended an answer, and the page's menu, breadcrumbs
    and contents list took source slots. They sit in the manual's own furniture blocks
    (ids page-header, path, quickview; classes toplang, bottomlang), laid out as there."""
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "logs.html").write_text(
        "<html><head><title>Log Files - Apache HTTP Server Version 2.4</title></head>\n"
        "<body id=\"manual-page\"><div id=\"page-header\">\n"
        "<p class=\"menu\"><a href=\"mod/index.html\">Modules</a> | "
        "<a href=\"mod/quickreference.html\">Directives</a> | <a href=\"faq\">FAQ</a></p>\n"
        "<p class=\"apache\">Apache HTTP Server Version 2.4</p></div>\n"
        "<div id=\"path\">\n<a href=\"https://www.apache.org/\">Apache</a> &gt; "
        "<a href=\"https://httpd.apache.org/\">HTTP Server</a></div>\n"
        "<div id=\"page-content\"><div id=\"preamble\"><h1>Log Files</h1>\n"
        "<div class=\"toplang\">\n<p><span>Available Languages: </span>"
        "<a href=\"../en/logs.html\">&nbsp;en&nbsp;</a> |\n"
        "<a href=\"../fr/logs.html\">&nbsp;fr&nbsp;</a></p>\n</div>\n"
        "<p>The server keeps an error log and an access log.</p>\n</div>\n"
        "<div id=\"quickview\"><ul id=\"toc\"><li><a href=\"#errorlog\">Error Log</a></li>\n"
        "<li><a href=\"#accesslog\">Access Log</a></li></ul></div>\n"
        "<div class=\"section\"><h2>Error Log</h2>\n"
        "<p>The error log is set by the ErrorLog directive.</p></div>\n"
        "<div class=\"bottomlang\">\n<p><span>Available Languages: </span>"
        "<a href=\"../en/logs.html\">&nbsp;en&nbsp;</a></p>\n</div>\n"
        "<div id=\"footer\"><p class=\"apache\">Copyright 2026 The Apache Software "
        "Foundation.</p></div></div></body></html>\n", encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok
    text = "\n".join(c["text"] for c in chunks_of(db, "logs.html"))
    for furniture in ("Available Languages", "Directives", "HTTP Server", "Access Log",
                      "Copyright"):
        assert furniture not in text, (furniture, text)
    assert "The server keeps an error log" in text and "ErrorLog directive" in text, text


def test_texinfo_navigation_bars_and_contents_are_furniture(fresh_index, tmp_path):
    """Trial 18 (lilypond-doc-html, Texinfo through texi2html): each page's "[ << Running
    lilypond ] [Top][Contents][Index]" bars and the whole manual's contents beside it were
    passages, and a bar was quoted as the answer. makeinfo puts its "Previous: … Up: …"
    bar in a <div class="header"> (libffi's manual); any bar of links with no word outside
    them is navigation, never quoted."""
    fixtures = Path(__file__).parents[1] / "fixtures" / "documented"
    folder = tmp_path / "manual"
    folder.mkdir()
    for name in ("lilypond-command-line.html", "libffi-complex-type.html"):
        (folder / name).write_bytes((fixtures / name).read_bytes())
    (folder / "bar.html").write_text(
        "<html><body><div><p>[<a href=\"a.html\">&lt;&lt; Previous</a>] | "
        "[<a href=\"index.html\">Top</a>][<a href=\"toc.html\">Contents</a>]</p>\n"
        "<p>The scratch folder is set by the TMPDIR variable of the environment.</p>"
        "</div></body></html>\n", encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok
    body = {name: "\n".join(c["text"] for c in chunks_of(db, name) if c["role"] == "body")
            for name in ("lilypond-command-line.html", "libffi-complex-type.html", "bar.html")}
    lilypond = body["lilypond-command-line.html"]
    for furniture in ("[Top][Contents][Index]", "Back to Documentation Index",
                      "Other languages", "3.6.4 xelatex"):
        assert furniture not in lilypond, furniture
    assert "This specifies the temporary directory" in lilypond
    assert "Previous: Complex Types" not in body["libffi-complex-type.html"]
    assert "This example demonstrates how to use complex types" in body["libffi-complex-type.html"]
    assert "Previous" not in body["bar.html"] and "TMPDIR variable" in body["bar.html"]


def test_html_article_header_keeps_its_title(fresh_index, tmp_path):
    """Regression: an article's own <header> holds its <h1>; only site chrome is skipped."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "atelier.html").write_text(
        "<html><body>\n"
        "<header>Site banner</header>\n"
        "<main><article>\n"
        "<header><h1>Guide de l'atelier</h1></header>\n"
        "<section><h2>Outils</h2>\n"
        "<p>Le tournevis est rangé dans le tiroir.</p></section>\n"
        "</article></main>\n"
        "</body></html>\n",
        encoding="utf-8",
    )
    _, db = ingest_folder(fresh_index, folder)
    chunks = chunks_of(db, "atelier.html")
    assert "Site banner" not in " ".join(c["text"] for c in chunks)
    (tool,) = [c for c in chunks if "tournevis" in c["text"]]
    assert tool["heading"] == "Guide de l'atelier > Outils"


def test_an_api_reference_entry_is_a_chunk_named_by_its_signature(fresh_index, tmp_path):
    """A Sphinx reference page (the Python 3.11 docs' textwrap.html, Debian's python3-doc):
    each function, class and attribute is a chunk of its own under its signature, with the
    lines of its entry; an attribute nested in a class sits under the class; what follows
    the class's attributes is the class's again. Before, the page was cut in windows of
    ~150 words across entries, and "textwrap.dedent" was no chunk's heading."""
    folder = tmp_path / "docs"
    folder.mkdir()
    page = Path(__file__).parents[1] / "fixtures" / "documented" / "textwrap.html"
    (folder / "textwrap.html").write_bytes(page.read_bytes())
    lines = page.read_text("utf-8").split("\n")
    _, db = ingest_folder(fresh_index, folder)
    chunks = chunks_of(db, "textwrap.html")
    by_last = {c["heading"].split(" > ")[-1]: c for c in chunks}
    module = "textwrap — Text wrapping and filling"
    dedent = by_last["textwrap.dedent(text)"]
    assert dedent["heading"] == f"{module} > textwrap.dedent(text)"
    assert dedent["text"].startswith("textwrap.dedent(text)\nRemove any common leading")
    # its lines: from its signature's <dt> to the end of its <dd>, nothing of the next entry
    assert 'id="textwrap.dedent"' in "\n".join(lines[dedent["start_line"] - 2:dedent["start_line"]])
    assert "</dd>" in "\n".join(lines[dedent["end_line"]:dedent["end_line"] + 3])
    assert "Add prefix to the beginning" not in dedent["text"]  # textwrap.indent's entry
    width = by_last["width"]
    assert width["heading"] == f"{module} > class textwrap.TextWrapper(**kwargs) > width"
    assert "The maximum length of wrapped lines" in width["text"]
    after = [c for c in chunks if c["text"].startswith("TextWrapper also provides")]
    assert [c["heading"] for c in after] == [f"{module} > class textwrap.TextWrapper(**kwargs)"]
    # every entry of the page is a chunk: 5 functions, the class, its 12 attributes and
    # 2 methods
    entries = [c for c in chunks if c["heading"] != module]
    assert len({c["heading"] for c in entries}) == 20


def test_an_html_table_row_is_one_line_and_a_layout_table_is_not(fresh_index, tmp_path):
    """A data table's row is one line, its cells joined by " | " (the Debian installation
    guide's "Avec bureau | 1 gigaoctet | 2 gigaoctets" was four blocks, one per cell, and no
    passage said what "1 gigaoctet" was); a table used for layout, whose row holds the
    page's paragraphs, is still cut into its paragraphs."""
    folder = tmp_path / "guide"
    folder.mkdir()
    long = " ".join(["Ce paragraphe décrit longuement la mise en page du portail."] * 8)
    (folder / "materiel.html").write_text(
        "<html><body><main>\n"
        "<h2>3.4. Matériel minimum</h2>\n"
        "<p>Vérifiez que votre machine suffit.</p>\n"
        "<table><thead><tr>\n<th>Type d'installation</th>\n<th>RAM (minimum)</th>\n"
        "<th>Disque dur</th>\n</tr></thead>\n<tbody><tr>\n<td>Sans bureau</td>\n"
        "<td>256 mégaoctets</td>\n<td>4 gigaoctets</td>\n</tr>\n<tr>\n"
        "<td><p>Avec bureau</p></td>\n<td>1 gigaoctet</td>\n<td>10 gigaoctets</td>\n"
        "</tr></tbody></table>\n"
        "<h2>Mise en page</h2>\n"
        f"<table><tr><td><p>{long}</p>\n<p>Le second paragraphe reste à part.</p></td>"
        "</tr></table>\n"
        "</main></body></html>\n", encoding="utf-8")
    _, db = ingest_folder(fresh_index, folder)
    chunks = chunks_of(db, "materiel.html")
    (table,) = [c for c in chunks if c["heading"] == "3.4. Matériel minimum"]
    lines = table["text"].split("\n")
    assert "Type d'installation | RAM (minimum) | Disque dur" in lines
    assert "Avec bureau | 1 gigaoctet | 10 gigaoctets" in lines
    assert (table["start_line"], table["end_line"]) == (2, 17)  # the heading to the last cell
    (layout,) = [c for c in chunks if c["heading"] == "Mise en page"]
    assert "Le second paragraphe reste à part." in layout["text"].split("\n")
    assert " | " not in layout["text"]


# --------------------------------------------------------------------------------- PDF


def test_pdf_pages_and_printed_labels(index_path):
    chunks = chunks_of(index_path, "handbook/teletravail.pdf")
    assert chunks and all(c["kind"] == "pdf" for c in chunks)
    (doc,) = rows(index_path, "SELECT * FROM documents WHERE path = 'handbook/teletravail.pdf'")
    assert doc["pages"] >= 3
    assert {c["page"] for c in chunks} == set(range(1, doc["pages"] + 1))
    for chunk in chunks:
        # the cover is printed "i", the next pages "1", "2", ...: index = label + 1
        expected = "i" if chunk["page"] == 1 else str(chunk["page"] - 1)
        assert chunk["page_label"] == expected, chunk["page"]
        assert chunk["text"] == unicodedata.normalize("NFC", chunk["text"])


def test_pdf_accented_text_with_word_boundaries(index_path):
    chunks = chunks_of(index_path, "handbook/teletravail.pdf")
    found = [c for c in chunks if "Chaque salarié éligible peut télétravailler jusqu'à 2 jours "
             "par semaine" in norm(c["text"])]
    assert found and {(c["page"], c["page_label"]) for c in found} == {(2, "1")}
    text = " ".join(norm(c["text"]) for c in chunks)
    for phrase in ("Politique de télétravail", "2. Éligibilité", "comité social et économique"):
        assert phrase in text, phrase


def test_pdf_every_sentence_on_its_page(index_path):
    """Each sentence written into the PDF is found, words intact, on the right page."""
    build = build_examples_module()
    chunks = chunks_of(index_path, "handbook/teletravail.pdf")
    by_page: dict[int, list[str]] = {}
    for chunk in chunks:
        by_page.setdefault(chunk["page"], []).append(norm(chunk["text"]))
    pages = [build.PDF_COVER, *build.PDF_PAGES]
    checked = 0
    for number, blocks in enumerate(pages, 1):
        for kind, text in blocks:
            if kind not in ("p", "li"):
                continue
            for sentence in re.split(r"(?<=[.!?;:])\s+", norm(text)):
                if len(sentence.split()) < 4:
                    continue
                assert any(sentence in t for t in by_page.get(number, [])), (number, sentence)
                checked += 1
    assert checked > 20


# -------------------------------------------------------------------------------- DOCX


def test_docx_heading_path(index_path):
    chunks = chunks_of(index_path, "handbook/expenses.docx")
    assert chunks and all(c["kind"] == "docx" for c in chunks)
    (trains,) = [c for c in chunks if "default for journeys within France" in c["text"]]
    assert trains["heading"] == "2. Travel > 2.1 Trains"
    build = build_examples_module()
    stack: list[tuple[int, str]] = []
    checked = 0
    for kind, text in build.DOCX_BLOCKS:
        if kind in ("h1", "h2"):
            level = int(kind[1])
            stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, text)]
        elif kind in ("p", "li"):
            holders = [c for c in chunks if norm(text) in norm(c["text"])]
            assert holders, text
            assert {c["heading"] for c in holders} == {" > ".join(t for _, t in stack)}, text
            checked += 1
    assert checked >= 10


def test_docx_written_file(fresh_index, tmp_path):
    docx = pytest.importorskip("docx")
    folder = tmp_path / "word"
    folder.mkdir()
    document = docx.Document()
    document.add_heading("Manuel", level=0)  # Title style
    document.add_heading("Sécurité", level=1)
    document.add_paragraph("Portez des lunettes à l'atelier.")
    document.add_heading("Machines", level=2)
    document.add_paragraph("La scie est débranchée après usage.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Machine", "Contrôle"
    table.cell(1, 0).text, table.cell(1, 1).text = "Perceuse", "Mensuel"
    document.add_heading("Accueil", level=1)
    document.add_paragraph("Badge remis le premier jour.")
    document.save(folder / "manuel.docx")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok, report.failed
    chunks = chunks_of(db, "manuel.docx")
    (goggles,) = [c for c in chunks if "lunettes" in c["text"]]
    assert goggles["heading"] == "Sécurité"
    (saw,) = [c for c in chunks if "scie" in c["text"]]
    assert saw["heading"] == "Sécurité > Machines"
    assert "Perceuse" in saw["text"]  # table rows belong to their section
    (badge,) = [c for c in chunks if "Badge" in c["text"]]
    assert badge["heading"] == "Accueil"
    (doc,) = rows(db, "SELECT title FROM documents")
    assert doc["title"] == "Manuel"


# ------------------------------------------------------------------------------ Python


def python_definitions(source: str) -> dict[str, tuple[str, int, int | None]]:
    """symbol -> (kind, first line with decorators, last line or None for classes), from
    the syntax tree: the oracle the AST splitter must agree with."""
    tree = ast.parse(source)
    out: dict[str, tuple[str, int, int | None]] = {}

    def first(node) -> int:
        return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])

    def visit_class(node: ast.ClassDef, prefix: str) -> None:
        name = prefix + node.name
        out[name] = ("class", first(node), None)
        for child in node.body:
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                out[f"{name}.{child.name}"] = ("method", first(child), child.end_lineno)
            elif isinstance(child, ast.ClassDef):
                visit_class(child, name + ".")

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out[node.name] = ("function", first(node), node.end_lineno)
        elif isinstance(node, ast.ClassDef):
            visit_class(node, "")
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if names and all(n.isupper() for n in names):
                out[", ".join(names)] = ("constant", node.lineno, node.end_lineno)
    if ast.get_docstring(tree) is not None:
        out["<module>"] = ("module", tree.body[0].lineno, tree.body[0].end_lineno)
    return out


def check_python_chunks(source: str, chunks: list[dict]) -> int:
    lines = source.split("\n")
    expected = python_definitions(source)
    by_symbol: dict[str, list[dict]] = {}
    for chunk in chunks:
        assert chunk["kind"] == "code"
        assert chunk["text"] == "\n".join(lines[chunk["start_line"] - 1:chunk["end_line"]])
        key = "<module>" if chunk["symbol_kind"] == "module" else chunk["symbol"]
        if key:
            by_symbol.setdefault(key, []).append(chunk)
    for symbol, (kind, first, last) in expected.items():
        assert symbol in by_symbol, (symbol, sorted(by_symbol))
        found = by_symbol[symbol]
        assert all(c["symbol_kind"] == kind for c in found), symbol
        assert min(c["start_line"] for c in found) == first, symbol
        if last is not None:
            assert max(c["end_line"] for c in found) == last, symbol
    return len(expected)


def test_python_sample_package_matches_its_syntax_tree(corpus, index_path):
    files = sorted((corpus / "facturo").glob("*.py"))
    if not files:
        pytest.skip("examples/facturo is not there yet")
    checked = 0
    for file in files:
        path = f"facturo/{file.name}"
        checked += check_python_chunks(file.read_text("utf-8"), chunks_of(index_path, path))
    assert checked >= 20
    # the package has methods named Class.method
    methods = rows(index_path, "SELECT symbol FROM chunks WHERE symbol_kind = 'method'")
    assert methods and all(re.fullmatch(r"\w+(\.\w+)+", m["symbol"]) for m in methods)
    constant = rows(index_path, "SELECT * FROM chunks WHERE symbol = 'PALIERS_RELANCE'")
    assert constant and constant[0]["symbol_kind"] == "constant"


PYTHON_SAMPLE = '''\
"""Sample module.

Second line of the docstring.
"""

import functools

TAUX = 0.2
SEUILS: tuple[int, ...] = (
    1,
    2,
)


def simple(x):
    return x + 1


@functools.lru_cache(
    maxsize=10,
)
@functools.wraps(simple)
def decorated(y):
    """Docstring."""
    return y


class Base:
    """A class."""

    LIMIT = 3

    @property
    def name(self):
        return "base"

    async def fetch(self):
        return None

    class Inner:
        def deep(self):
            return 1


if __name__ == "__main__":
    print(simple(1))
'''


def test_python_written_file_exact_lines(fresh_index, tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "sample.py").write_text(PYTHON_SAMPLE, encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok
    chunks = chunks_of(db, "sample.py")
    check_python_chunks(PYTHON_SAMPLE, chunks)
    got = {(c["symbol_kind"], c["start_line"], c["end_line"]) for c in chunks if c["symbol"]}
    for expected in [("module", 1, 4), ("constant", 8, 8), ("constant", 9, 12),
                     ("function", 15, 16), ("function", 19, 25), ("class", 28, 31),
                     ("method", 33, 35), ("method", 37, 38), ("method", 41, 42)]:
        assert expected in got, expected
    names = {c["symbol"] for c in chunks}
    assert {"Base.name", "Base.fetch", "Base.Inner", "Base.Inner.deep"} <= names
    # top-level code that is no definition is still indexed, by lines
    tail = [c for c in chunks if "__main__" in c["text"]]
    assert tail and tail[0]["start_line"] == 45


def test_python_class_attribute_after_methods_is_indexed(fresh_index, tmp_path):
    """Regression: class statements after the first method used to be in no chunk."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "late.py").write_text(
        "class Config:\n"
        "    def load(self):\n"
        "        return 1\n"
        "\n"
        "    RETRY_DELAY_SECONDS = 17\n",
        encoding="utf-8",
    )
    _, db = ingest_folder(fresh_index, folder)
    assert any("RETRY_DELAY_SECONDS" in c["text"] for c in chunks_of(db, "late.py"))


def test_python_with_syntax_error_and_other_languages_use_line_windows(fresh_index, tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    broken = "def broken(:\n    pass\n" + "".join(f"x_{i} = {i}\n" for i in range(60))
    (folder / "broken.py").write_text(broken, encoding="utf-8")
    js = "".join(f"const value{i} = compute({i});\n" for i in range(1, 101))
    (folder / "app.js").write_text(js, encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok, report.failed
    for path, text in (("broken.py", broken), ("app.js", js)):
        lines = text.split("\n")
        chunks = chunks_of(db, path)
        assert len(chunks) > 1, path
        covered = set()
        for chunk in chunks:
            assert chunk["text"] == "\n".join(lines[chunk["start_line"] - 1:chunk["end_line"]])
            covered |= set(range(chunk["start_line"], chunk["end_line"] + 1))
        assert {n for n, line in enumerate(lines, 1) if line.strip()} <= covered


# ---------------------------------------------------------------------------- metadata


def test_metadata_from_front_matter(index_path):
    (doc,) = rows(index_path, "SELECT * FROM documents WHERE path = 'handbook/retours-v1.md'")
    assert doc["doc_id"] == "retours-v1"
    assert doc["title"] == "Politique de retours"
    assert doc["language"] == "fr"
    assert doc["access"] == "public"
    assert doc["version"] == "1"
    assert (doc["effective_from"], doc["effective_to"]) == ("2025-01-01", "2026-10-31")
    (staff,) = rows(index_path,
                    "SELECT * FROM documents WHERE path = 'handbook/escalade-retours.md'")
    assert staff["access"] == "staff"
    # chunks carry the filter columns of their document
    for chunk in chunks_of(index_path, "handbook/retours-v1.md"):
        assert (chunk["access"], chunk["effective_to"]) == ("public", "2026-10-31")


@pytest.mark.parametrize(
    ("path", "doc_id", "title", "language", "version", "effective_from"),
    [
        ("handbook/teletravail.pdf", "teletravail", "Politique de télétravail", "fr", "2.1",
         "2025-03-01"),
        ("handbook/expenses.docx", "expenses", "Travel and expense policy", "en", "2025.2",
         "2025-07-01"),
        ("handbook/it-security.html", "it-security", "IT security guide", "en", "4",
         "2025-02-01"),
    ],
)
def test_metadata_from_sidecar(index_path, path, doc_id, title, language, version,
                               effective_from):
    (doc,) = rows(index_path, "SELECT * FROM documents WHERE path = ?", (path,))
    assert (doc["doc_id"], doc["title"], doc["language"], doc["access"], doc["version"],
            doc["effective_from"]) == (doc_id, title, language, "public", version,
                                       effective_from)


def test_sidecar_wins_over_front_matter(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text("---\naccess: staff\nversion: '1'\n---\n# Note\n\nTexte.\n",
                                    encoding="utf-8")
    (folder / "note.md.meta.yaml").write_text("access: public\neffective_from: 2026-01-01\n",
                                              encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok and report.added == ["note.md"]  # the sidecar is no document itself
    (doc,) = rows(db, "SELECT * FROM documents")
    assert (doc["access"], doc["version"], doc["effective_from"]) == ("public", "1",
                                                                      "2026-01-01")


def test_document_without_access_label_gets_none(fresh_index, index_path, tmp_path):
    (draft,) = rows(index_path,
                    "SELECT * FROM documents WHERE path = 'handbook/brouillon-stationnement.md'")
    assert draft["access"] is None
    assert draft["version"] == "0.1"  # the front matter was read, it just has no label
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "plain.txt").write_text("Un texte sans métadonnées.\n", encoding="utf-8")
    _, db = ingest_folder(fresh_index, folder)
    (doc,) = rows(db, "SELECT * FROM documents")
    assert doc["access"] is None
    assert all(c["access"] is None for c in chunks_of(db, "plain.txt"))


def test_bad_metadata_is_a_per_file_error(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "bad-date.md").write_text("---\neffective_from: soon\n---\n# A\n\nText.\n",
                                        encoding="utf-8")
    (folder / "bad-order.md").write_text(
        "---\neffective_from: 2026-05-01\neffective_to: 2026-01-01\n---\n# B\n\nText.\n",
        encoding="utf-8")
    (folder / "bad-yaml.md").write_text("---\ntitle: [unclosed\n---\n# C\n\nText.\n",
                                        encoding="utf-8")
    (folder / "good.md").write_text("# Good\n\nFine text.\n", encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    failed = {p.path: p.reason for p in report.failed}
    assert set(failed) == {"bad-date.md", "bad-order.md", "bad-yaml.md"}
    assert "soon" in failed["bad-date.md"]
    assert "effective_to" in failed["bad-order.md"]
    assert report.added == ["good.md"]
    assert [d["path"] for d in rows(db, "SELECT path FROM documents")] == ["good.md"]


def test_impossible_calendar_date_is_a_per_file_error(fresh_index, tmp_path):
    """Regression: PyYAML raises ValueError for 2026-02-30, which used to abort the run."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "typo.md").write_text("---\neffective_from: 2026-02-30\n---\n# A\n\nText.\n",
                                    encoding="utf-8")
    (folder / "good.md").write_text("# Good\n\nFine text.\n", encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert [p.path for p in report.failed] == ["typo.md"]
    assert report.added == ["good.md"]


# -------------------------------------------------------------------------------- walk


def test_walk_skips_hidden_ignored_and_vendored_files(fresh_index, tmp_path):
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text("# Guide\n\nVisible.\n", encoding="utf-8")
    (root / "notes.txt").write_text("Visible notes.\n", encoding="utf-8")
    (root / ".secret.md").write_text("# Hidden file\n", encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "inside.md").write_text("# Hidden folder\n", encoding="utf-8")
    (root / "node_modules" / "lib").mkdir(parents=True)
    (root / "node_modules" / "lib" / "index.js").write_text("module.exports = 1;\n")
    (root / "node_modules" / "README.md").write_text("# vendored\n")
    (root / "venv").mkdir()
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (root / "venv" / "site.py").write_text("X = 1\n")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "cache.py").write_text("X = 1\n")
    (root / ".gitignore").write_text("build/\n*.draft.md\n/private.txt\n", encoding="utf-8")
    (root / "build").mkdir()
    (root / "build" / "out.md").write_text("# Built\n")
    (root / "plan.draft.md").write_text("# Draft\n")
    (root / "private.txt").write_text("Private.\n")
    (root / "docs" / ".gitignore").write_text("local-*.md\n", encoding="utf-8")
    (root / "docs" / "local-notes.md").write_text("# Local\n")
    (root / "docs" / "private.txt").write_text("Not ignored: the rule was anchored.\n")
    (root / ".preuveignore").write_text("answers.yaml\n", encoding="utf-8")
    (root / "answers.yaml").write_text("secret: answers\n", encoding="utf-8")
    report, db = ingest_folder(fresh_index, root)
    assert report.ok, report.failed
    indexed = sorted(d["path"] for d in rows(db, "SELECT path FROM documents"))
    assert indexed == ["docs/guide.md", "docs/private.txt", "notes.txt"]
    assert report.skipped == []


def test_unsupported_types_are_reported_as_skipped(fresh_index, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (folder / "archive.zip").write_bytes(b"PK\x03\x04" + bytes(64))
    (folder / "readme.md").write_text("# Read me\n\nText.\n", encoding="utf-8")
    report, db = ingest_folder(fresh_index, folder)
    assert report.ok  # a format preuve does not read is no failure
    assert sorted(p.path for p in report.skipped) == ["archive.zip", "photo.png"]
    assert all(p.reason for p in report.skipped)
    assert [d["path"] for d in rows(db, "SELECT path FROM documents")] == ["readme.md"]


def test_files_without_text_are_skipped_with_a_note_not_failed(tmp_path):
    """A heading-only Markdown file and an empty dependency_links.txt were reported as
    `error:` and counted as failed (issue 21 item 3): they are fine, they hold nothing."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "only-heading.md").write_text("# Only a heading\n", encoding="utf-8")
    (docs / "dependency_links.txt").write_text("", encoding="utf-8")
    (docs / "real.md").write_text("# Real\n\nSome text to index.\n", encoding="utf-8")
    with Index(tmp_path / "index.sqlite", embedder="none") as index:
        report = index.ingest([docs])
    assert report.ok and report.failed == [] and report.added == ["real.md"]
    assert {(p.path, p.reason) for p in report.skipped} == {
        ("only-heading.md", "no text to index"), ("dependency_links.txt", "no text to index")}
    result = run_cli("ingest", str(docs), "--index", str(tmp_path / "cli.sqlite"))
    assert result.returncode == 0 and "error:" not in result.stderr
    assert "skipped: only-heading.md: no text to index" in result.stderr


def test_myst_link_targets_are_not_text():
    """pip's Markdown (MyST, for Sphinx) puts "(compatibility-requirements)=" above a
    heading as a link target: it was indexed as the end of the section before and quoted
    as code in an answer about upgrading pip (trial 31). The page reads without it, and its
    lines keep their numbers."""
    fixtures = Path(__file__).parents[1] / "fixtures" / "documented"
    data = (fixtures / "pip-installation.md").read_bytes()
    parsed = parse_markdown(data, ChunkSettings())
    text = "\n".join(c.text for c in parsed.chunks)
    assert "(compatibility-requirements)=" in data.decode()
    assert ")=" not in text
    upgrade = next(c for c in parsed.chunks if c.heading.endswith("Upgrading `pip`"))
    assert upgrade.text.rstrip().endswith("```")
    lines = data.decode().split("\n")
    compatibility = next(c for c in parsed.chunks if c.heading.endswith("Compatibility"))
    assert lines[compatibility.start_line - 1].strip() == "## Compatibility"


def test_a_myst_text_directive_is_markdown_and_its_lines_keep_their_numbers():
    """pip's caching.md writes its notes and tabs as MyST directives in fences
    ("```{caution}", "````{tab} Linux"). Read as code fences, "````{tab} Linux" was closed by
    the code block inside it and the path "~/.cache/pip" became a stray line. A text
    directive's fence is markup: its argument stays ("Linux", "versionadded 20.1"), the
    code blocks inside stay code, and every line keeps its number."""
    page = (Path(__file__).parents[1] / "fixtures" / "documented" / "pip-caching.md")
    data = page.read_bytes()
    lines = data.decode().split("\n")
    parsed = parse_markdown(data, ChunkSettings())
    paths = next(c for c in parsed.chunks if c.heading.endswith("Default paths"))
    assert "{tab}" not in paths.text and "````" not in paths.text, paths.text
    assert "Linux\n```\n~/.cache/pip\n```" in paths.text, paths.text
    assert lines[paths.start_line - 1].startswith("### Default paths"), paths.start_line
    assert lines[paths.start_line + 1] == "````{tab} Linux", paths.start_line
    for chunk in parsed.chunks:
        assert "{caution}" not in chunk.text and "{versionadded}" not in chunk.text, chunk.text
        assert chunk.text.count("\n") == chunk.end_line - chunk.start_line, chunk
    assert any("versionadded 20.1" in c.text for c in parsed.chunks)
    # a colon fence (attrs' glossary: ":::{glossary}" / terms / ":::") holds Markdown too
    glossary = (page.parent / "attrs-glossary.md").read_bytes()
    terms = parse_markdown(glossary, ChunkSettings())
    assert not any(":::" in c.text for c in terms.chunks), [c.text[:60] for c in terms.chunks]
    assert any('dunder methods\n  "Dunder" is a contraction' in c.text for c in terms.chunks)


def test_a_manual_page_s_section_of_a_few_words_opens_the_next_passage():
    """The French tail(1) (trial 93's fr2): NOM ("tail - Afficher la dernière partie de
    fichiers", 6 words) and SYNOPSIS (4 words) were passages of their own, and BM25, which
    favours the short, ranked them first for "tail -f ne suit plus mon log après la
    rotation" on the page's name alone, above the paragraph that answers. A passage of
    fewer than 40 words joins the next one, line for line."""
    page = (Path(__file__).parents[1] / "fixtures" / "documented" / "tail.1.fr.txt")
    data = page.read_bytes()
    lines = data.decode().split("\n")
    parsed = parse_text(data, ChunkSettings())
    first = parsed.chunks[0]
    assert first.text.lstrip().startswith("NOM") and "DESCRIPTION" in first.text, first.text
    for chunk in parsed.chunks:  # (words `man` hyphenated are whole on their first line)
        assert chunk.text.count("\n") == chunk.end_line - chunk.start_line, chunk
        assert chunk.text.split("\n")[0].split()[:1] == lines[chunk.start_line - 1].split()[:1]
    short = [c for c in parsed.chunks[:-1] if len(c.text.split()) < 40]
    assert not short, short
