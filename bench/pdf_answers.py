"""Answers over real PDF manuals, as a new user gets them: default ingest (e5), default
`ask` (extractive), no `calibrate`.

    PYTHONPATH=. .venv/bin/python bench/pdf_answers.py [PDF ...]

Default PDFs: the Debian Reference in English and French (`apt-get install
debian-reference-en debian-reference-fr`). Answerable questions are made from each manual
as `bench/pdf_structure.py` makes them (outline titles, key words of body sentences) and
know the page they came from; out-of-scope questions are ten written here per language
(salaries, recipes, sports results, prices no document states). Printed per PDF:
- answered: share of answerable questions not refused;
- citations to contents pages: citations whose page is a table-of-contents page;
- citations on the page: share of citations on the question's page (+-1 for titles);
- answer words from the page: share of an answer's words found on the question's page(s);
- out of scope refused: exact refusal strings among the ten.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from pdf_structure import outline, page_texts, questions, run, toc_pages

from preuve import Index
from preuve.answer import is_refusal

OUT_OF_SCOPE = {
    "en": ["What is the salary of the project leader?", "How do I bake a chocolate cake?",
           "Who won the football World Cup in 2018?",
           "How much does a yearly support contract cost?", "Who is the CEO of the company?",
           "What is the best recipe for lasagna?",
           "How many goals did the top scorer make last season?",
           "What is the phone number of the Paris office?",
           "How much does a laptop cost in euros?", "What is the capital of Australia?"],
    "fr": ["Quel est le salaire du chef de projet ?", "Comment faire un gâteau au chocolat ?",
           "Qui a gagné la coupe du monde de football en 2018 ?",
           "Combien coûte un contrat de support annuel ?", "Qui est le PDG de l'entreprise ?",
           "Quelle est la meilleure recette de lasagnes ?",
           "Combien de buts le meilleur buteur a-t-il marqués la saison dernière ?",
           "Quel est le numéro de téléphone du bureau de Paris ?",
           "Combien coûte un ordinateur portable en euros ?",
           "Quelle est la capitale de l'Australie ?"],
}
_WORD = re.compile(r"[^\W\d_]{3,}")
_MARKUP = re.compile(r"\[[^\]]*\]\([^)]*\)|\[[^\]]*\]")


def words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def measure(path: Path) -> dict:
    pages = page_texts(path)
    entries = outline(path)
    first_target = min(page for _, page in entries)
    toc = toc_pages(pages, first_target)
    language = "fr" if ".fr." in path.name else "en"
    asked = questions(pages, entries, first_target)
    with tempfile.TemporaryDirectory(prefix="preuve-pdf-") as folder:
        source = Path(folder) / "docs"
        source.mkdir()
        (source / path.name).write_bytes(path.read_bytes())
        with Index(Path(folder) / "index.sqlite") as index:
            started = time.perf_counter()
            index.ingest([source])
            ingest_seconds = time.perf_counter() - started
            answered = cites = on_toc = on_page = 0
            shares = []
            for question, page, tolerance in asked:
                answer = index.ask(question, as_of=None)
                if answer.refused:
                    continue
                answered += 1
                near = set(range(page - tolerance, page + tolerance + 1))
                for citation in answer.citations:
                    cited = citation.get("page")
                    cites += 1
                    on_toc += cited in toc
                    on_page += cited in near
                said = words(_MARKUP.sub(" ", answer.answer))
                there = set(words(" ".join(ln for p in near if 0 < p <= len(pages)
                                           for ln in pages[p - 1])))
                if said:
                    shares.append(sum(w in there for w in said) / len(said))
            refused = sum(is_refusal(index.ask(q, as_of=None).answer)
                          for q in OUT_OF_SCOPE[language])
    return {"pdf": path.name, "questions": len(asked),
            "answered": f"{answered / len(asked):.0%}",
            "citations": cites, "citations to contents pages": on_toc,
            "citations on the page": f"{on_page / max(cites, 1):.0%}",
            "answer words from the page": f"{sum(shares) / max(len(shares), 1):.0%}",
            "out of scope refused": f"{refused}/{len(OUT_OF_SCOPE[language])}",
            "ingest s": f"{ingest_seconds:.0f}"}


if __name__ == "__main__":
    sys.exit(run(measure, sys.argv[1:]))
