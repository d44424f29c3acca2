"""Every setting preuve reads from its environment, in one frozen object.

The front ends (the CLI, the HTTP server, the MCP server, the bench scripts) build one
`Settings` when they start — `Settings.load(env=os.environ, config=FILE, **flags)` — and
pass it (or the values in it) down as parameters. Nothing below them reads `os.environ`.

Precedence, highest first: flags (keyword arguments that are not None), the config file
(YAML, keys are the field names below), the `PREUVE_*` environment variables, the
defaults. `VARIABLES` is the table the README documents.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from preuve.errors import InvalidInput

__all__ = ["VARIABLES", "Settings", "Variable", "read_mapping"]


@dataclass(frozen=True)
class Variable:
    name: str  # the environment variable
    field: str  # the Settings field it fills
    kind: type
    meaning: str
    default: str  # as the README shows it


VARIABLES: tuple[Variable, ...] = (
    Variable("PREUVE_INDEX", "index", str,
             "The index: a SQLite file or a postgresql:// URL (`--index`).",
             "`./.preuve/index.sqlite`"),
    Variable("PREUVE_EMBEDDER", "embedder", str,
             "Embedding model of a new index: a registered embedder, or `none` (`--embedder`).",
             "`e5` (an index keeps its own)"),
    Variable("PREUVE_RERANKER", "reranker", str,
             "Cross-encoder for `--method rerank`: a folder, or `NAME:ARG` (`--reranker`).",
             "none"),
    Variable("PREUVE_AUDIENCE", "audience", str,
             "CLI searches and answers: only what this audience may read (`--audience`).",
             "everything (the operator)"),
    Variable("PREUVE_LINK_BASE", "link_base", str,
             "Base of citation links, e.g. a repository URL pinned to a commit (`--link-base`).",
             "the local folder"),
    Variable("PREUVE_MCP_AUDIENCE", "mcp_audience", str,
             "What the MCP server's agent may read (`preuve mcp --audience`).",
             "`public`"),
    Variable("PREUVE_SERVER_CONFIG", "server_config", str,
             "YAML settings of `preuve serve` (`--config`).",
             "none"),
    Variable("PREUVE_API_KEYS", "api_keys", str,
             "`key:audience,...` added to the server's API keys.",
             "none"),
    Variable("PREUVE_ANONYMOUS", "anonymous", str,
             "Audience of server requests without a key (over the config file's).",
             "none: 401 without a key"),
    Variable("PREUVE_LLM_BASE_URL", "llm_base_url", str,
             "OpenAI-compatible API root for `--generator openai` (`--base-url`).",
             "none"),
    Variable("PREUVE_LLM_MODEL", "llm_model", str,
             "Model name for `--generator openai` (`--model`).",
             "none"),
    Variable("PREUVE_LLM_API_KEY", "llm_api_key", str,
             "API key of that endpoint.",
             "`$OPENAI_API_KEY`, else none"),
    Variable("PREUVE_LLM_TIMEOUT", "llm_timeout", float,
             "Seconds without a byte from the model server before an attempt fails.",
             "60"),
    Variable("PREUVE_LLM_MAX_RETRIES", "llm_max_retries", int,
             "Retries after the first attempt (connection errors, timeouts, 408, 429, 5xx).",
             "4"),
    Variable("PREUVE_CACHE", "cache", str,
             "Folder of built model files (the e5 ONNX graph).",
             "`~/.cache/preuve`"),
    Variable("PREUVE_DICT_DIR", "dict_dir", str,
             "Folder of the FreeDict French-English dictionaries (keyword search across "
             "languages; skipped without them).",
             "`/usr/share/dictd`"),
    Variable("PREUVE_BM25", "bm25", str,
             "How BM25 ranks: `memory` (the in-memory keyword index) or `sql` (FTS5 / sparse "
             "vectors: slower, for comparison).",
             "`memory`"),
    Variable("PREUVE_ANN_THRESHOLD", "ann_threshold", int,
             "SQLite: vectors from which dense search uses the approximate index.",
             "200000"),
    Variable("PREUVE_HNSW_THRESHOLD", "hnsw_threshold", int,
             "PostgreSQL: chunks from which an HNSW index is built.",
             "50000"),
    Variable("PREUVE_HNSW_EF_SEARCH", "hnsw_ef_search", int,
             "PostgreSQL: `hnsw.ef_search` of each connection.",
             "200"),
    Variable("PREUVE_PG_POOL", "pg_pool", int,
             "PostgreSQL: connections per store.",
             "4"),
)
FALLBACKS = {"llm_api_key": ("OPENAI_API_KEY",)}  # read when the PREUVE_ variable is unset


@dataclass(frozen=True)
class Settings:
    """What the user configured; None means "the default of whoever uses it" unless a
    default is written here."""

    index: str | None = None
    embedder: str | None = None
    reranker: str | None = None
    audience: str | None = None
    link_base: str | None = None
    mcp_audience: str = "public"
    server_config: str | None = None
    api_keys: str = ""
    anonymous: str | None = None
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = None
    llm_timeout: float | None = None
    llm_max_retries: int | None = None
    cache: str | None = None
    dict_dir: str | None = None
    bm25: str = "memory"
    ann_threshold: int | None = None
    hnsw_threshold: int | None = None
    hnsw_ef_search: int | None = None
    pg_pool: int | None = None

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
            if not str(raw).strip():
                source, raw = next(((v, env[v]) for v in FALLBACKS.get(var.field, ())
                                    if str(env.get(v, "")).strip()), (var.name, ""))
            if str(raw).strip():
                values[var.field] = _convert(var.kind, raw, source)
        known = {f.name: f for f in fields(cls)}
        for key, value in _config(config).items():
            if key not in known:
                raise InvalidInput(f"{config}: unknown setting {key!r} (known: "
                                   f"{', '.join(sorted(known))})")
            if value is not None:
                values[key] = _convert(_kind(key), value, f"{config}: {key}")
        for key, value in flags.items():
            if key not in known:
                raise TypeError(f"Settings has no field {key!r}")
            if value is not None:
                values[key] = value
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        """A copy with these fields changed (None values are ignored)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _kind(field_name: str) -> type:
    for var in VARIABLES:
        if var.field == field_name:
            return var.kind
    return str


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
