"""Every setting preuve reads from its environment, in one frozen object.

The front ends (the CLI, the HTTP server, the MCP server, the bench scripts) build one
`Settings` when they start — `Settings.load(env=os.environ, config=FILE, **flags)` — and
pass it (or the values in it) down as parameters. Nothing below them reads `os.environ`.

Precedence, highest first: flags (keyword arguments that are not None), the config file
(YAML, keys are the fields of `Settings`), the `PREUVE_*` environment variables, the
defaults. Each field declares its variable, its meaning and its default as the README shows
it (`setting(...)`, the field's metadata); `VARIABLES` lists them, and `readme_table()` is
the README's table (`make settings-table` writes it there; tests/test_settings.py checks
that the two agree).
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from preuve.errors import InvalidInput

__all__ = ["VARIABLES", "Settings", "Variable", "read_mapping", "readme_table"]


def setting(variable: str, meaning: str, shown: str, value: Any = None) -> Any:
    """A field of `Settings`: filled from the environment variable `variable`, described
    by `meaning`, its default shown in the README as `shown`; `value` is the field's
    default (None: whoever uses the setting decides)."""
    return field(default=value, metadata={"variable": variable, "meaning": meaning,
                                          "shown": shown})


@dataclass(frozen=True, repr=False)
class Settings:
    """What the user configured; None means "the default of whoever uses it" unless the
    field gives a value."""

    index: str | None = setting(
        "PREUVE_INDEX", "The index: a SQLite file or a postgresql:// URL (`--index`).",
        "`./.preuve/index.sqlite`")
    embedder: str | None = setting(
        "PREUVE_EMBEDDER", "Embedding model of a new index: a registered embedder, or "
        "`none` (`--embedder`).", "`e5` (an index keeps its own)")
    companion: str | None = setting(
        "PREUVE_COMPANION", "Second embedder whose list hybrid fuses (cross-lingual "
        "recall), or `none`.", "`use-m3`", "use-m3")
    reranker: str | None = setting(
        "PREUVE_RERANKER", "Cross-encoder for `--method rerank`: a folder, or `NAME:ARG` "
        "(`--reranker`).", "none")
    audience: str | None = setting(
        "PREUVE_AUDIENCE", "CLI searches and answers: only what this audience may read "
        "(`--audience`).", "everything (the operator)")
    link_base: str | None = setting(
        "PREUVE_LINK_BASE", "Base of citation links, e.g. a repository URL pinned to a "
        "commit (`--link-base`).", "the local folder")
    mcp_audience: str | None = setting(
        "PREUVE_MCP_AUDIENCE", "What the MCP server's agent may read (`preuve mcp "
        "--audience`).", "`public`", "public")
    server_config: str | None = setting(
        "PREUVE_SERVER_CONFIG", "YAML settings of `preuve serve` (`--config`).", "none")
    api_keys: str | None = setting(
        "PREUVE_API_KEYS", "`key:audience,...` added to the server's API keys.", "none", "")
    anonymous: str | None = setting(
        "PREUVE_ANONYMOUS", "Audience of server requests without a key (over the config "
        "file's).", "none: 401 without a key")
    llm_base_url: str | None = setting(
        "PREUVE_LLM_BASE_URL", "OpenAI-compatible API root for `--generator openai` "
        "(`--base-url`).", "none")
    llm_model: str | None = setting(
        "PREUVE_LLM_MODEL", "Model name for `--generator openai` (`--model`).", "none")
    llm_api_key: str | None = setting(
        "PREUVE_LLM_API_KEY", "API key of that endpoint.", "`$OPENAI_API_KEY`, else none")
    llm_timeout: float | None = setting(
        "PREUVE_LLM_TIMEOUT", "Seconds without a byte from the model server before an "
        "attempt fails.", "60")
    llm_max_retries: int | None = setting(
        "PREUVE_LLM_MAX_RETRIES", "Retries after the first attempt (connection errors, "
        "timeouts, 408, 429, 5xx).", "4")
    cache: str | None = setting(
        "PREUVE_CACHE", "Folder of built model files (the e5 ONNX graph) and of the keyword "
        "snapshots of PostgreSQL indexes (about 1.5 GB per million chunks).",
        "`~/.cache/preuve`")
    dict_dir: str | None = setting(
        "PREUVE_DICT_DIR", "Folder of the FreeDict French-English dictionaries (keyword "
        "search and the refusal judgment across languages; skipped without them; the word "
        "lists that tell a name from a word are read from /usr/share/dict).",
        "`/usr/share/dictd`")
    bm25: str | None = setting(
        "PREUVE_BM25", "How BM25 ranks: `memory` (the in-memory keyword index) or `sql` "
        "(FTS5 / sparse vectors: slower, for comparison).", "`memory`", "memory")
    ann_threshold: int | None = setting(
        "PREUVE_ANN_THRESHOLD", "SQLite: vectors from which dense search uses the "
        "approximate index.", "200000")
    hnsw_threshold: int | None = setting(
        "PREUVE_HNSW_THRESHOLD", "PostgreSQL: chunks from which an HNSW index is built.",
        "50000")
    hnsw_ef_search: int | None = setting(
        "PREUVE_HNSW_EF_SEARCH", "PostgreSQL: `hnsw.ef_search` of each connection.", "200")
    pg_pool: int | None = setting(
        "PREUVE_PG_POOL", "PostgreSQL: connections per store.", "4")
    llm_threads: int | None = setting(
        "PREUVE_LLM_THREADS", "Threads of the local GGUF generator (`--generator local`).",
        "2 (at most the CPUs)")

    def __repr__(self) -> str:  # never shows a key
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("llm_api_key", "api_keys") and value:
                value = "<set>"
            if value != f.default:
                shown.append(f"{f.name}={value!r}")
        return f"Settings({', '.join(shown)})"

    @classmethod
    def load(cls, env: Mapping[str, str] | None = None,
             config: str | os.PathLike | Mapping[str, Any] | None = None,
             **flags: Any) -> Settings:
        """Settings from flags > config file > environment (`os.environ` when `env` is None)
        > defaults. Bad values raise InvalidInput naming the variable or key."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for var in VARIABLES:
            raw = env.get(var.name, "")
            source = var.name
            if var.field in LABEL_FIELDS and var.name in env and not str(raw).strip():
                # who reads what: a set but blank audience is refused, as `--audience ""`
                # is, never read as "unset" (the operator, who reads everything)
                raise InvalidInput(f"{var.name} is set but blank: unset it (the operator "
                                   "reads everything) or name a label such as public")
            if not str(raw).strip():
                source, raw = next(((v, env[v]) for v in FALLBACKS.get(var.field, ())
                                    if str(env.get(v, "")).strip()), (var.name, ""))
            if str(raw).strip():
                values[var.field] = _convert(var.kind, raw, source)
        known = {var.field: var for var in VARIABLES}
        for key, value in _config(config).items():
            if key not in known:
                raise InvalidInput(f"{config}: unknown setting {key!r} (known: "
                                   f"{', '.join(sorted(known))})")
            if value is not None:
                values[key] = _convert(known[key].kind, value, f"{config}: {key}")
        for key, value in flags.items():
            if key not in known:
                raise TypeError(f"Settings has no field {key!r}")
            if value is not None:
                values[key] = value
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        """A copy with these fields changed (None values are ignored)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


@dataclass(frozen=True)
class Variable:
    name: str  # the environment variable
    field: str  # the Settings field it fills
    kind: type  # str, int or float: what the variable's text is converted to
    meaning: str
    default: str  # as the README shows it
    value: Any = None  # the Settings field's default (None: whoever uses it decides)


def _variables() -> tuple[Variable, ...]:
    """The fields of `Settings` with their metadata, in declaration order."""
    hints = typing.get_type_hints(Settings)
    variables = []
    for f in fields(Settings):
        hint = hints[f.name]
        kinds = [k for k in typing.get_args(hint) if k is not type(None)] \
            if isinstance(hint, types.UnionType) else [hint]
        variables.append(Variable(f.metadata["variable"], f.name, kinds[0],
                                  f.metadata["meaning"], f.metadata["shown"], f.default))
    return tuple(variables)


VARIABLES: tuple[Variable, ...] = _variables()
FALLBACKS = {"llm_api_key": ("OPENAI_API_KEY",)}  # read when the PREUVE_ variable is unset
# Settings that name an audience (a label): refused when set but blank
LABEL_FIELDS = frozenset({"audience", "mcp_audience", "anonymous"})


def readme_table() -> str:
    """The README's table of settings, one row per variable (Markdown)."""
    rows = ["| variable | meaning | default |", "| --- | --- | --- |"]
    rows += [f"| `{v.name}` | {v.meaning} | {v.default} |" for v in VARIABLES]
    return "\n".join(rows) + "\n"


def _convert(kind: type, raw: Any, where: str) -> Any:
    if kind is str:
        return str(raw).strip()
    try:
        if isinstance(raw, bool):
            raise ValueError
        return kind(str(raw).strip())
    except ValueError:
        raise InvalidInput(f"{where}={raw!r} is not a number"
                           + (" (a whole number)" if kind is int else "")) from None


def _config(config: str | os.PathLike | Mapping[str, Any] | None) -> dict[str, Any]:
    if config is None:
        return {}
    if isinstance(config, Mapping):
        return dict(config)
    return read_mapping(Path(config))


def read_mapping(path: Path) -> dict[str, Any]:
    """The mapping a YAML settings file holds; InvalidInput naming the file otherwise."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text("utf-8")) or {}
    except OSError as exc:
        raise InvalidInput(f"{path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise InvalidInput(f"{path}: not valid YAML ({exc})") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path}: expected a mapping of settings")
    return data
