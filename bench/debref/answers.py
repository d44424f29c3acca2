"""The Debian Reference, never tuned on: ask the twenty questions of `questions.txt`
(written as users ask them, before any answer was seen) with the defaults and print each
answer, to be read and judged by hand (docs/answers.md holds the verdicts).

    .venv/bin/python bench/debref/answers.py [INDEX]     # default /tmp/debref/index.sqlite

Needs Debian's debian-reference-en and debian-reference-fr (as root they are installed);
chapters 4, 9 and 10 in both languages are copied and ingested on the first run."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from preuve import Index

SOURCE = Path("/usr/share/debian-reference")
CHAPTERS = ("ch04", "ch09", "ch10")
QUESTIONS = Path(__file__).with_name("questions.txt")


def corpus(folder: Path) -> Path:
    if not (SOURCE / "ch04.fr.html").is_file():
        subprocess.run(["apt-get", "install", "-y", "-qq", "debian-reference-en",
                        "debian-reference-fr"], check=True)
    for lang in ("en", "fr"):
        (folder / lang).mkdir(parents=True, exist_ok=True)
        for chapter in CHAPTERS:
            shutil.copy2(SOURCE / f"{chapter}.{lang}.html", folder / lang)
    return folder


def main() -> None:
    location = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/debref/index.sqlite")
    with Index(location) as index:
        if not location.exists() or not index.documents():
            index.ingest([corpus(location.parent / "docs")])
        for question in QUESTIONS.read_text("utf-8").splitlines():
            answer = index.ask(question)
            text = re.sub(r"\]\([^)]*\)", "]", answer.answer)  # links out: labels stay
            print(f"Q: {question}\nA: {text}" + (f"  ({answer.reason})" if answer.refused
                                                   else "") + "\n")


if __name__ == "__main__":
    main()
