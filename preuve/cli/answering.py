"""Verbs that answer: ask, chat, and calibrate (the threshold under which ask refuses)."""

from __future__ import annotations

import sys

import click

from preuve.cli._common import (
    METHODS,
    command_settings,
    embedder_option,
    filter_options,
    index_option,
    json_option,
    open_index,
    print_json,
)
from preuve.models import ASK_K, QUESTION_LIMIT, within_limit
from preuve.registry import (
    generators,
)


def _generator_options(f):
    for option in reversed([
        click.option("--generator", "generator_name", default="extractive", show_default=True,
                     type=click.Choice(generators.names()),
                     help="; ".join(f"{name}: {spec.help}" for name, spec in generators.items())
                     + "."),
        click.option("--model", default=None, help="Model name for --generator openai."),
        click.option("--base-url", default=None, help="Endpoint for --generator openai."),
        click.option("--gguf", default=None, type=click.Path(exists=True, dir_okay=False),
                     help="GGUF file for --generator local."),
        click.option("--link-base", default=None, metavar="URL",
                     help="Base of citation links: a repository URL pinned to a commit "
                          "(https://github.com/org/repo/blob/<sha>); default: the local folder "
                          "(or $PREUVE_LINK_BASE)."),
        click.option("--method", type=click.Choice(METHODS), default=None,
                     help="Retrieval method (default: hybrid if the index has vectors)."),
        click.option("-k", "k", default=ASK_K, show_default=True, help="Passages retrieved."),
    ]):
        f = option(f)
    return f


def _make_generator(name, model, base_url, gguf):
    """The registered generator `name` (None: extractive), --model and --base-url over
    $PREUVE_LLM_MODEL and $PREUVE_LLM_BASE_URL."""
    if name == "local" and not gguf:
        raise click.UsageError("--generator local needs --gguf FILE")
    settings = command_settings(llm_model=model, llm_base_url=base_url)
    return generators.get(name).make(settings, gguf=gguf)


def _print_answer(answer, show_rejected: bool) -> None:
    click.echo(answer.answer)
    if answer.refused and answer.reason:
        click.echo(click.style(f"({answer.reason})", dim=True), err=True)
    if show_rejected and answer.rejected:
        click.echo(click.style(f"rejected: {answer.rejected}", fg="yellow"), err=True)
    if answer.hits:
        click.echo("\nSources:")
        for hit in answer.hits:
            click.echo(f"  {hit.rank}. {hit.shown_label}  [{hit.score:.3f}]  "
                       f"{hit.preview(80, placeholder='…')}")


@click.command()
@click.argument("question")
@click.option("--show-rejected", is_flag=True,
              help="Also print an answer the citation check rejected, and why.")
@click.option("--stream/--no-stream", default=True,
              help="Print the verified answer as soon as it is verified.")
@click.option("--explain", is_flag=True,
              help="Say why: the refusal judgment's numbers and the sentence scores.")
@_generator_options
@filter_options
@index_option
@embedder_option
@json_option
def ask(question, show_rejected, stream, explain, generator_name, model, base_url, gguf,
        link_base, method, k, as_of, audience, paths, index_path, embedder, as_json):
    """Answer QUESTION from the index, every claim cited and checked."""
    within_limit(question, QUESTION_LIMIT, "question")
    given = command_settings(audience=audience, link_base=link_base)
    audience, link_base = given.audience, given.link_base
    generator = _make_generator(generator_name, model, base_url, gguf)
    streamed = []
    on_token = None
    if generator is not None and stream and not as_json and sys.stdout.isatty():
        def on_token(token):
            streamed.append(token)
            click.echo(click.style(token, dim=True), nl=False, err=True)
    with open_index(index_path, embedder) as index:
        answer = index.ask(question, method=method, k=k, as_of=as_of, audience=audience,
                           paths=paths, generator=generator, link_base=link_base,
                           on_token=on_token)
    if streamed:
        click.echo("", err=True)
    if as_json:
        print_json(answer.to_dict())
    else:
        _print_answer(answer, show_rejected)
        if explain:
            _print_explain(answer.explain)


def _print_explain(explain: dict) -> None:
    """The judgment's numbers (coverage, dense evidence, agreement, each word's IDF) and
    the best sentences' scores."""
    click.echo("\nWhy:")
    if explain.get("decided_by"):
        click.echo(f"  decided by: {explain['decided_by']}")
    judged = explain.get("judgment") or {}
    if judged:
        click.echo(f"  coverage {judged['coverage']}  dense {judged['dense']}  "
                   f"agreement {judged['agreement']}  defaults {judged['defaults']}")
        click.echo("  words: " + ", ".join(
            f"{w['word']} (idf {w['idf']}, {'found' if w['found'] else 'missing'})"
            for w in judged["words"]))
        if judged.get("translation"):
            click.echo(f"  {judged['translation']}")
        if judged.get("absent_names"):
            click.echo("  names no readable passage holds: " + ", ".join(judged["absent_names"]))
    if explain.get("kind"):
        click.echo(f"  the question asks for: {explain['kind']}")
    choice = explain.get("choice") or {}
    if choice:
        click.echo(f"  answered from {choice['passage']} (rank {choice['rank']}): "
                   f"{choice['why']}")
    for s in explain.get("sentences", []):
        mark = "*" if s["quoted"] else " "
        role = "" if s.get("role", "statement") == "statement" else f"{s['role']}, "
        click.echo(f"  {mark} {s['score']:.3f} ({role}lexical {s['lexical']}, cosine "
                   f"{s['cosine']}, kind {s.get('kind', 0)}) {s['label']}: {s['text']}")


@click.command()
@click.argument("question", required=False)
@click.option("--conversation", "conversation_id", default=None, metavar="ID",
              help="Resume this conversation (default: start a new one).")
@click.option("--show-rejected", is_flag=True, help="Also print rejected answers.")
@_generator_options
@filter_options
@index_option
@embedder_option
@json_option
def chat(question, conversation_id, show_rejected, generator_name, model, base_url, gguf,
         link_base, method, k, as_of, audience, paths, index_path, embedder, as_json):
    """A conversation: follow-up questions are made standalone before retrieval.

    With QUESTION, one turn (prints the conversation id to resume with --conversation).
    Without, an interactive session, as `llm chat`: a `> ` prompt (on stderr), one question
    per line, the conversation kept from turn to turn; `exit`, `quit` or end of input
    ends it."""
    given = command_settings(audience=audience, link_base=link_base)
    audience, link_base = given.audience, given.link_base
    generator = _make_generator(generator_name, model, base_url, gguf)
    interactive = question is None
    with open_index(index_path, embedder) as index:
        if interactive and not as_json:
            click.echo("Chatting with " + ("a new conversation" if conversation_id is None
                       else f"conversation {conversation_id}")
                       + ". Type 'exit' or 'quit' to end.", err=True)
        for q in _read_questions() if interactive else [question]:
            within_limit(q, QUESTION_LIMIT, "question")
            conversation_id, answer = index.chat(
                q, conversation=conversation_id, audience=audience, generator=generator,
                method=method, k=k, as_of=as_of, paths=paths, link_base=link_base)
            if as_json:
                print_json({"conversation": conversation_id, **answer.to_dict()})
                continue
            if answer.standalone_question and answer.standalone_question != q:
                click.echo(click.style(f"(searched: {answer.standalone_question})", dim=True))
            _print_answer(answer, show_rejected)
            if not interactive:
                click.echo(f"\nconversation: {conversation_id}")
            else:
                click.echo("")
    if interactive and conversation_id and not as_json:
        click.echo(f"conversation: {conversation_id} (resume: preuve chat --conversation "
                   f"{conversation_id})", err=True)


_ENDS = ("exit", "quit")


def _read_questions():
    """Questions typed at the `> ` prompt until `exit`, `quit` or end of input; blank
    lines are skipped."""
    while True:
        click.echo("> ", nl=False, err=True)
        line = sys.stdin.readline()
        if not line:  # end of input
            click.echo("", err=True)
            return
        if line.strip().lower() in _ENDS:
            return
        if line.strip():
            yield line.strip()


@click.command()
@click.argument("reference", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default=None)
@click.option("-k", "k", default=ASK_K, show_default=True)
@index_option
@embedder_option
@json_option
def calibrate(reference, method, k, index_path, embedder, as_json):
    """Choose the evidence threshold under which `ask` refuses, from REFERENCE files whose
    unanswerable questions are marked `refuse: true`; stored in the index."""
    from preuve.evaluate.answers import calibrate as run

    with open_index(index_path, embedder) as index:
        result = run(index, reference, method=method, k=k)
    if as_json:
        print_json(result)
        return
    click.echo(f"refusal threshold {result['value']} ({result['measure']} evidence, "
               f"{result['method']}): answerable kept {result['answerable_kept']}, refusals "
               f"caught {result['refusals_caught']}, balanced accuracy "
               f"{result['balanced_accuracy']}")
    if result["misjudged"]:
        click.echo(f"misjudged: {', '.join(result['misjudged'])}")
