"""Every setting preuve reads from its environment, in one frozen object.

The front ends (the CLI, the HTTP server, the MCP server, the bench scripts) build one
`Settings` when they start — `Settings.load(env=os.environ, config=FILE, **flags)` — and
pass it (or the values in it) down as parameters. Nothing below them reads `os.environ`.

Precedence, highest first: flags (keyword arguments that are not None), the config file
(YAML, keys are the fields of settings.toml), the `PREUVE_*` environment variables, the
defaults. `VARIABLES` is the table the README documents.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, make_dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from preuve.errors import InvalidInput

__all__ = ["VARIABLES", "Settings", "Variable", "read_mapping"]


@dataclass(frozen=True)
class Variable:
    name: str  # the environment variable
    field: str  # the Settings field it fills
    kind: type
    meaning: str
    default: str  # as the README shows it
    value: Any = None  # the Settings field's default (None: whoever uses it decides)


KINDS = {"str": str, "int": int, "float": float}


def _variables() -> tuple[Variable, ...]:
    """The table of settings.toml (data: the name, field, type, meaning and defaults of each)."""
    import tomllib

    with (Path(__file__).parent / "settings.toml").open("rb") as source:
        rows = tomllib.load(source)["variable"]
    return tuple(Variable(**{**row, "kind": KINDS[row["kind"]]}) for row in rows)


VARIABLES: tuple[Variable, ...] = _variables()
FALLBACKS = {"llm_api_key": ("OPENAI_API_KEY",)}  # read when the PREUVE_ variable is unset
# Settings that name an audience (a label): refused when set but blank
LABEL_FIELDS = frozenset({"audience", "mcp_audience", "anonymous"})


class _Methods:
    """What every `Settings` can do; its fields are made from `VARIABLES` below, so the
    table the README shows and the object the code reads are one list."""

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


if TYPE_CHECKING:  # what a type checker sees: the fields are made at import, from TOML
    class Settings(_Methods):
        def __init__(self, **values: Any) -> None: ...

        def __getattr__(self, name: str) -> Any: ...
else:
    Settings = make_dataclass(
        "Settings", [(v.field, v.kind | None, field(default=v.value)) for v in VARIABLES],
        bases=(_Methods,), frozen=True, repr=False,
        namespace={"__module__": __name__, "__doc__": """What the user configured, one field
        per `VARIABLES` entry; None means "the default of whoever uses it" unless the entry
        gives a value."""})


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
