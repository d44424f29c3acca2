"""`preuve eval`: retrieval and answer metrics on a reference file or a collection."""

from __future__ import annotations

import click

from preuve.cli._common import (
    COMPARABLE,
    METHODS,
    command_settings,
    embedder_option,
    index_option,
    json_option,
    open_index,
    print_json,
)
from preuve.index import (
    Index,
)
from preuve.ingest.base import CHUNKING_STRATEGIES, ChunkSettings


@click.command(name="eval")
@click.argument("target", type=click.Path(exists=True))
@click.option("--method", default=None,
              help=f"A method, several separated by commas, or 'all' ({', '.join(COMPARABLE)}). "
                   "Default: the search default (hybrid when the index has vectors).")
@click.option("-k", "k", default=10, show_default=True, help="Cut-off for hit@k and recall@k.")
@click.option("--show-missed", default=20, show_default=True,
              help="How many missed question ids to print per method.")
@click.option("--answers", is_flag=True,
              help="Answer metrics instead (reference file): answered, refusals, citations, "
                   "outcomes (right/partial/wrong/refusals) per lang and type, the misses; "
                   "on a collection: answered, gold span / token F1 (SQuAD), citation on "
                   "the gold record.")
@click.option("--limit", default=200, show_default=True,
              help="--answers on a collection: questions asked (fixed-seed sample; 0 = all).")
@click.option("--foreign", type=click.Path(exists=True), default=None,
              help="--answers on a collection: another collection whose questions must be "
                   "refused.")
@click.option("--records", default=0, show_default=True,
              help="--answers on a collection: index only the sampled questions' records, "
                   "their articles' and fixed-seed others up to this many (0 = all).")
@click.option("--chunking", "chunkings", default=None, metavar="STRATEGIES",
              help="Collections: compare chunkings, comma-separated or 'all' ("
                   + ", ".join(CHUNKING_STRATEGIES) + "), one eval index each.")
@click.option("--chunk-words", type=int, default=None, help="With --chunking: size in words.")
@click.option("--chunk-overlap", type=int, default=None, help="With --chunking: overlap.")
@click.option("--report", "report_path", default=None, type=click.Path(dir_okay=False),
              metavar="REPORT.html",
              help="Write a self-contained HTML report (per-type charts per method, the "
                   "missed questions with their top passages and why; for a reference "
                   "file also answer outcomes and the refusal judgment, and kept in the "
                   "index for the server's /eval), its data beside it as .json.")
@click.option("--against", default=None, type=click.Path(dir_okay=False), metavar="OLD.json",
              help="With --report: compare with an earlier report's .json (what improved, "
                   "what regressed).")
@index_option
@embedder_option
@json_option
def eval_(target, method, k, show_missed, answers, limit, foreign, records, chunkings,
          chunk_words, chunk_overlap, report_path, against, index_path, embedder, as_json):
    """Retrieval metrics on TARGET: a reference file (.yaml/.jsonl, asked against the
    index) or a collection (BEIR folder, SQuAD/PIAF .json, Cranfield folder), indexed on
    its own beside the main index. With --answers: answer metrics on a reference file."""
    from preuve.evaluate.run import evaluate, is_reference_file

    if method == "all":
        names = list(COMPARABLE)
    else:
        names = method.split(",") if method else [None]
    for name in names:
        if name is not None and name not in METHODS:
            raise click.BadParameter(f"unknown method {name!r} (known: {', '.join(METHODS)})",
                                     param_hint="--method")
    settings = command_settings(index=index_path, embedder=embedder)
    if against and not report_path:
        raise click.UsageError("--against compares reports: give --report too")
    if report_path and (chunkings or answers):
        raise click.UsageError("--report evaluates retrieval (and a reference file's answers) "
                               "on its own: drop --chunking/--answers")
    if report_path:
        return _eval_report(target, [n for n in names if n], k, report_path, against,
                            index_path, embedder, as_json)
    if answers and not is_reference_file(target):
        return _eval_collection_answers(target, foreign, limit or None, records, index_path,
                                        as_json)
    if answers:
        return _eval_answers(target, names[0], index_path, embedder, as_json, show_missed)
    chunkings = (CHUNKING_STRATEGIES if chunkings == "all" else chunkings.split(",")
                 if chunkings else [None])
    asked = [ChunkSettings.asked(n, chunk_words, chunk_overlap) for n in chunkings]
    runs = {s.describe() if s else "": evaluate(
        target, methods=names, k=k, index=settings.index, embedder=settings.embedder,
        progress=not as_json, chunking=s, settings=settings) for s in asked}
    if as_json:
        data = {c: {m: r.to_dict() | {"method": m} for m, r in reports.items()}
                for c, reports in runs.items()}
        data = {c: d[next(iter(d))] if len(d) == 1 else d for c, d in data.items()}
        print_json(data[""] if list(data) == [""] else data)
        return
    for chunking, reports in runs.items():
        _print_eval(target, reports, k, show_missed, settings.index, settings.embedder, chunking)
    if len(runs) > 1:
        _print_chunkings(runs, k)


def _print_eval(target, reports, k, show_missed, index_path, embedder, chunking) -> None:
    from preuve.evaluate.run import default_method, default_versus_best

    methods = list(reports)
    first = reports[methods[0]]
    click.echo(f"{target} · {first.n_questions} questions"
               + (f" ({first.n_skipped} without judgments skipped)" if first.n_skipped else "")
               + (f" · chunking {chunking}" if chunking else ""))
    names = list(first.metrics)
    click.echo(f"\n{'metric':<12}" + "".join(f"{m:>10}" for m in methods))
    for name in names:
        click.echo(f"{name:<12}" + "".join(f"{reports[m].metrics[name]:>10.3f}" for m in methods))
    if len(first.per_type) > 1:
        key = f"ndcg@{k}"
        click.echo(f"\n{key + ' by type':<22}{'n':>5}" + "".join(f"{m:>10}" for m in methods))
        for qtype, row in first.per_type.items():
            click.echo(f"{qtype:<22}{row['n']:>5}" + "".join(
                f"{reports[m].per_type[qtype][key]:>10.3f}" for m in methods))
    for m in methods:
        missed = reports[m].missed
        if missed:
            more = len(missed) - show_missed
            tail = f" … +{more}" if more > 0 else ""
            click.echo(f"\nmissed by {m} ({len(missed)}): {', '.join(missed[:show_missed])}{tail}")
    line = default_versus_best(reports, default_method(target, index_path, embedder), k)
    if line:
        click.echo(f"\n{line}")
    click.echo("")


def _eval_report(target, methods, k, report_path, against, index_path, embedder,
                 as_json) -> None:
    from preuve.evaluate import report
    from preuve.evaluate.run import is_reference_file

    previous = report.load_data(against) if against else None  # a bad file fails first
    served = is_reference_file(target)
    if served:
        with open_index(index_path, embedder) as index:
            data = report.collect(target, index, methods, k)
            if previous is not None:
                data["comparison"] = report.compare(data, previous)
            page, beside = report.write(data, report_path)
            index.calibration.keep_report(page.read_text("utf-8"))
    else:  # a collection, scored in its own eval index as `eval --json` scores it
        settings = command_settings(index=index_path, embedder=embedder)
        data = report.collect_collection(target, methods, k, index=settings.index,
                                         embedder=settings.embedder, settings=settings,
                                         progress=not as_json)
        if previous is not None:
            data["comparison"] = report.compare(data, previous)
        page, beside = report.write(data, report_path)
    if as_json:
        return print_json(data)
    if data["versus"]:
        click.echo(data["versus"])
    click.echo(f"missed by {data['default']}: {len(data['missed'])} of "
               f"{data['retrieval'][data['default']]['n_questions']}")
    if data.get("comparison"):
        diff = data["comparison"]
        click.echo(f"against {against}: {len(diff['improved'])} improved, "
                   f"{len(diff['regressed'])} regressed")
    click.echo(f"report: {page} (data: {beside}"
               + ("; served at /eval to admin keys)" if served else ")"))


def _print_chunkings(runs, k) -> None:
    key = f"ndcg@{k}"
    methods = list(next(iter(runs.values())))
    click.echo(f"{key + ' by chunking':<26}" + "".join(f"{m:>10}" for m in methods))
    for chunking, reports in runs.items():
        click.echo(f"{chunking:<26}" + "".join(f"{reports[m].metrics[key]:>10.3f}"
                                              for m in methods))


def _eval_collection_answers(target, foreign, limit, records, index_path, as_json):
    from preuve.evaluate.answers import evaluate_collection_answers, narrow, squad_answers
    from preuve.evaluate.datasets import load
    from preuve.evaluate.run import eval_index_path

    evalset = load(target)
    if records:
        evalset = narrow(evalset, limit, records)
    spans = squad_answers(target) if str(target).endswith(".json") else None
    settings = command_settings(index=index_path)
    with Index(eval_index_path(settings.index, evalset, "e5"), embedder="e5",
               settings=settings) as own:
        own.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                           language=evalset.language, progress=not as_json)
        report = evaluate_collection_answers(own, evalset, limit=limit, gold_spans=spans,
                                             foreign=load(foreign) if foreign else None)
    if as_json:
        print_json(report.to_dict())
        return
    click.echo(f"{target} · {report.n_questions} questions")
    for name, value in report.metrics.items():
        click.echo(f"  {name:<18}{value}")


def _eval_answers(target, method, index_path, embedder, as_json, show_missed=20):
    from preuve.evaluate.answers import evaluate_answers

    with open_index(index_path, embedder) as index:
        report = evaluate_answers(index, target, method=method)
    if as_json:
        print_json(report.to_dict())
        return
    m = report.metrics
    click.echo(f"{target} · {report.n_questions} questions "
               f"({m['n_answerable']} answerable, {m['n_refuse']} to refuse)")
    for name in ("answered", "correct_refusals", "wrong_refusals", "citation_validity",
                 "cites_relevant", "facts_found"):
        click.echo(f"  {name:<18}{m[name]:.3f}")
    wrong = [r["id"] for r in report.per_question if r["refused"] != r["refuse"]]
    if wrong:
        click.echo(f"misjudged ({len(wrong)}): {', '.join(wrong)}")
    _print_outcomes(report.outcomes, show_missed)


_OUTCOME_COLUMNS = (("right", "right"), ("partial", "partial"), ("wrong", "wrong"),
                    ("false_refusal", "refused"), ("unjudged", "unjudged"),
                    ("correct_refusal", "refused"), ("answered_unanswerable", "answered"))


def _print_outcomes(outcomes: dict, show_missed: int) -> None:
    """Outcomes per language and per type (answerable, then to refuse), then the misses."""
    rows = [("all", outcomes["overall"])]
    rows += [(f"lang {k}", v) for k, v in outcomes["per_lang"].items()]
    rows += [(f"type {k}", v) for k, v in outcomes["per_type"].items()]
    used = [(key, head) for key, head in _OUTCOME_COLUMNS
            if key in ("right", "correct_refusal") or any(r["counts"].get(key) for _, r in rows)]
    split = sum(key in ("correct_refusal", "answered_unanswerable") for key, _ in used)
    width = max(len(name) for name, _ in rows) + 2
    click.echo(f"\n{'outcomes':<{width}}{'answerable':>10}" + "".join(
        f"{head:>9}" for _, head in used[:len(used) - split]) + f"  |{'to refuse':>10}"
        + "".join(f"{head:>9}" for _, head in used[len(used) - split:]) + f"{'right %':>9}")
    for name, row in rows:
        counts = row["counts"]
        cells = [f"{counts.get(key, 0):>9}" for key, _ in used]
        share = f"{counts.get('right', 0) / row['n_answerable']:>9.0%}" if row["n_answerable"] \
            else f"{'-':>9}"
        click.echo(f"{name:<{width}}{row['n_answerable']:>10}" + "".join(cells[:len(used) - split])
                   + f"  |{row['n_refuse']:>10}" + "".join(cells[len(used) - split:]) + share)
    missed = outcomes["missed"]
    if not missed:
        return
    click.echo(f"\nmissed ({len(missed)}):")
    for r in missed[:show_missed]:
        answer = " ".join(r["answer"].split())
        click.echo(f"  {r['id']} [{r['outcome']}] {r['question']}")
        click.echo(f"      answer: {answer[:120]}{'…' if len(answer) > 120 else ''}")
        click.echo(f"      top hit: {r['top_hit'] or '-'}"
                   + (f" · missing: {', '.join(r['facts_missing'])}" if r["facts_missing"] else ""))
    if len(missed) > show_missed:
        click.echo(f"  (+{len(missed) - show_missed} more: --show-missed N, or --json for all)")
