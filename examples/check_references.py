"""Check that the reference questions still point at real passages of the sample corpus.

    python examples/check_references.py [questions.yaml crosslingual.yaml ...]

For every `relevant` entry: the file exists; a `page` exists in the PDF; `lines` fall
inside the file; a `section` is a substring of at least one heading path (Markdown,
HTML main content, DOCX Heading styles). Each question's `facts` must appear in the text
of at least one of its relevant passages (or in its path, for code questions). The
documents cited must be readable by the question's audience and in force on its `as_of`
date. Independent of preuve itself, so it also catches mistakes in preuve's parsers.
Exit status 1 on any problem.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
HEADING_MD = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def _norm(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split()).lower()


def metadata(path: Path) -> dict:
    sidecar = path.with_name(path.name + ".meta.yaml")
    if sidecar.is_file():
        return yaml.safe_load(sidecar.read_text("utf-8")) or {}
    text = path.read_text("utf-8") if path.suffix in (".md", ".txt") else ""
    if text.startswith("---\n"):
        return yaml.safe_load(text[4 : text.index("\n---", 4)]) or {}
    return {}


def md_sections(path: Path) -> list[tuple[str, str]]:
    """(heading path, text) for each Markdown section; front matter skipped."""
    lines = path.read_text("utf-8").split("\n")
    if lines[0] == "---":
        lines = lines[lines.index("---", 1) + 1 :]
    stack: list[tuple[int, str]] = []
    out, current = [], []
    for line in lines + ["# <end>"]:
        match = HEADING_MD.match(line)
        if not match:
            current.append(line)
            continue
        out.append((" > ".join(t for _, t in stack), "\n".join(current)))
        level = len(match.group(1))
        stack = [(lv, t) for lv, t in stack if lv < level] + [(level, match.group(2))]
        current = []
    return out


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.in_main = 0
        self.skip = 0
        self.level = 0
        self.heading: list[str] = []
        self.stack: list[tuple[int, str]] = []
        self.sections: list[list] = [["", ""]]

    def handle_starttag(self, tag, attrs):
        if tag in ("main", "article"):
            self.in_main += 1
        if tag in ("nav", "header", "footer", "script", "style"):
            self.skip += 1
        if re.fullmatch(r"h[1-6]", tag):
            self.level, self.heading = int(tag[1]), []

    def handle_endtag(self, tag):
        if tag in ("main", "article"):
            self.in_main -= 1
        if tag in ("nav", "header", "footer", "script", "style"):
            self.skip -= 1
        if re.fullmatch(r"h[1-6]", tag) and self.level:
            text = " ".join("".join(self.heading).split())
            self.stack = [(lv, t) for lv, t in self.stack if lv < self.level]
            self.stack.append((self.level, text))
            self.sections.append([" > ".join(t for _, t in self.stack), ""])
            self.level = 0

    def handle_data(self, data):
        if not self.in_main or self.skip:
            return
        if self.level:
            self.heading.append(data)
        else:
            self.sections[-1][1] += data


def html_sections(path: Path) -> list[tuple[str, str]]:
    parser = _Html()
    parser.feed(path.read_text("utf-8"))
    return [(h, t) for h, t in parser.sections]


def docx_sections(path: Path) -> list[tuple[str, str]]:
    import docx

    stack: list[tuple[int, str]] = []
    out: list[list] = [["", ""]]
    for paragraph in docx.Document(str(path)).paragraphs:
        style = paragraph.style.name if paragraph.style else ""
        if style.startswith("Heading "):
            level = int(style.split()[1])
            stack = [(lv, t) for lv, t in stack if lv < level] + [(level, paragraph.text)]
            out.append([" > ".join(t for _, t in stack), ""])
        else:
            out[-1][1] += paragraph.text + "\n"
    return [(h, t) for h, t in out]


def pdf_pages(path: Path) -> list[str]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def passage(rel: dict) -> tuple[str | None, str]:
    """(error, text of the passage) for one relevant entry."""
    path = HERE / rel["path"]
    if not path.is_file():
        return f"missing file {rel['path']}", ""
    texts = []
    if "page" in rel:
        if path.suffix != ".pdf":
            return f"page given for a non-PDF {rel['path']}", ""
        pages = pdf_pages(path)
        if not 1 <= rel["page"] <= len(pages):
            return f"{rel['path']} has no page {rel['page']} ({len(pages)} pages)", ""
        texts.append(pages[rel["page"] - 1])
    if "lines" in rel:
        start, end = rel["lines"]
        lines = path.read_text("utf-8").split("\n")
        if not 1 <= start <= end <= len(lines):
            return f"{rel['path']} lines {start}-{end} outside 1-{len(lines)}", ""
        texts.append("\n".join(lines[start - 1 : end]))
    if "section" in rel:
        sections = {
            ".md": md_sections,
            ".html": html_sections,
            ".docx": docx_sections,
        }.get(path.suffix)
        if sections is None:
            return f"section given for {rel['path']}, which has no headings", ""
        wanted = rel["section"].lower()
        found = [text for heading, text in sections(path) if wanted in heading.lower()]
        if not found:
            return f"{rel['path']}: no heading path contains {rel['section']!r}", ""
        texts.append("\n".join(found))
    if not texts:  # whole file
        texts.append(path.read_text("utf-8") if path.suffix != ".pdf" else "")
    return None, "\n".join(texts)


def in_force(meta: dict, day: str) -> bool:
    day_ = dt.date.fromisoformat(day)
    start, end = meta.get("effective_from"), meta.get("effective_to")
    return (start is None or start <= day_) and (end is None or day_ <= end)


def check(file: Path) -> list[str]:
    problems = []
    entries = yaml.safe_load(file.read_text("utf-8"))
    for entry in entries:
        qid = entry.get("id")
        relevant = entry.get("relevant") or []
        if not relevant and not entry.get("refuse"):
            problems.append(f"{qid}: no relevant passage and not refuse: true")
        texts = []
        for rel in relevant:
            error, text = passage(rel)
            if error:
                problems.append(f"{qid}: {error}")
                continue
            texts.append(_norm(text) + " " + rel["path"].lower())
            meta = metadata(HERE / rel["path"])
            audience = entry.get("audience")
            access = meta.get("access")
            if audience == "public" and access != "public":
                problems.append(f"{qid}: public question cites {rel['path']} ({access})")
            if audience == "staff" and access not in ("public", "staff"):
                problems.append(f"{qid}: staff question cites {rel['path']} ({access})")
            if entry.get("as_of") and not in_force(meta, str(entry["as_of"])):
                problems.append(f"{qid}: {rel['path']} not in force on {entry['as_of']}")
        for fact in entry.get("facts") or []:
            if texts and not any(_norm(fact) in t for t in texts):
                problems.append(f"{qid}: fact {fact!r} not found in its relevant passages")
    return problems


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or [HERE / "questions.yaml", HERE / "crosslingual.yaml"]
    problems = []
    for file in files:
        entries = yaml.safe_load(file.read_text("utf-8"))
        found = check(file)
        problems += [f"{file.name}: {p}" for p in found]
        print(f"{file.name}: {len(entries)} questions, {len(found)} problems")
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
