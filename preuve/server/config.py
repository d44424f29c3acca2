"""Server configuration: API keys and the audience each one reads as, uploads, limits.

YAML file (`preuve serve --config FILE`)::

    api_keys:            # key -> audience label, or `admin` (reads everything, may
      k-pub-123: public  #   upload and delete documents)
      k-staff-456: staff
      k-admin-789: admin
    anonymous: public    # optional: requests without a key read as this audience
    max_upload_mb: 20    # uploads larger than this are refused (413)
    upload_dir: uploads  # where uploaded files are kept (default: beside the index)
    upload_access: null  # access label of uploads that declare none (null: operator only)
    generator: extractive  # or `openai` (PREUVE_LLM_BASE_URL, PREUVE_LLM_MODEL, ...), or
                           #   another registered generator (preuve.registry.generators)
    max_body_kb: 1024    # JSON request bodies larger than this are refused (413)
    rate_per_key: 20     # requests per second a key may sustain (bursts of 2 s allowed)
    rate_per_ip: 40      # requests per second one client address may sustain
    failed_auth_per_ip: 1  # missing or wrong keys per second one address may try (burst 10)
    trusted_proxies: []  # addresses or networks whose X-Forwarded-For is believed (default:
                         #   none; behind nginx on the same machine: [127.0.0.1])

Audience labels follow the closed grammar of `preuve.models.validate_label`; `all` and the
other words that read as "everything" are reserved, so a key or `anonymous` mapped to one,
to an empty label or to anything outside the grammar is refused at load with the setting
named.

Environment (added to the file's settings): ``PREUVE_API_KEYS="key1:public,key2:staff,
key3:admin"``, ``PREUVE_ANONYMOUS=public``. The audience of a request is decided here, from
its key, never from the request body.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path

from preuve import models
from preuve.errors import InvalidInput
from preuve.registry import generators
from preuve.settings import Settings, read_mapping

ADMIN = "admin"
ANONYMOUS_OWNER = "anonymous"


class ConfigError(InvalidInput):
    """A setting of the server's configuration that cannot be used (named in the message)."""


@dataclass(frozen=True)
class Caller:
    """Who is asking: the audience their reads are filtered with (None: everything)."""

    audience: str | None
    admin: bool = False
    name: str = ""  # the audience label as configured (for logs and /me), never the key
    owner: str = ""  # what owns their conversations: a digest of the key, never the key


@dataclass
class ServerConfig:
    api_keys: dict[str, str] = field(default_factory=dict)
    anonymous: str | None = None
    max_upload_mb: float = 20.0
    upload_dir: str | None = None
    upload_access: str | None = None
    generator: str = "extractive"
    max_body_kb: float = 1024.0
    rate_per_key: float = 20.0
    rate_per_ip: float = 40.0
    failed_auth_per_ip: float = 1.0
    trusted_proxies: list[str] = field(default_factory=list)

    def __post_init__(self):
        if not isinstance(self.trusted_proxies, list | tuple):
            raise ConfigError(f"trusted_proxies: {self.trusted_proxies!r} (expected a list of "
                              "addresses or networks)")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(str(proxy), strict=False)
            except ValueError:
                raise ConfigError(f"trusted_proxies: {proxy!r} is not an address or a "
                                  "network") from None
        for key, label in self.api_keys.items():
            if not key:
                raise ConfigError("api_keys: an empty key is not allowed")
            if label != ADMIN:
                self.api_keys[key] = validate_label(label, f"api_keys: the key {_masked(key)}")
        if self.anonymous is not None:
            if self.anonymous == ADMIN:
                raise ConfigError("anonymous: cannot be admin (anonymous callers never write)")
            self.anonymous = validate_label(self.anonymous, "anonymous")
        if self.upload_access is not None:
            self.upload_access = validate_label(self.upload_access, "upload_access")
        for name in ("max_upload_mb", "max_body_kb", "rate_per_key", "rate_per_ip",
                     "failed_auth_per_ip"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ConfigError(f"{name}: {value!r} (expected a number above 0)")
        known = generators.names()
        if self.generator not in known:
            raise ConfigError(f"generator: {self.generator!r} ({', '.join(known)})")

    def uvicorn_options(self) -> dict:
        """How uvicorn reads a client's address: from the connection, unless it comes from
        a trusted proxy (uvicorn's own default believes X-Forwarded-For from 127.0.0.1, so
        a local client rotating that header escaped the per-address limits)."""
        if not self.trusted_proxies:
            return {"proxy_headers": False}
        return {"proxy_headers": True,
                "forwarded_allow_ips": [str(p) for p in self.trusted_proxies]}

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)

    @property
    def max_body_bytes(self) -> int:
        return int(self.max_body_kb * 1024)

    def caller(self, key: str | None) -> Caller | None:
        """The caller a key stands for; None when the key is missing or unknown (and no
        anonymous access is configured)."""
        if key:
            found = None
            for known, label in self.api_keys.items():  # compare every key, constant time
                if hmac.compare_digest(known.encode(), key.encode()):
                    found = label
            if found is None:
                return None
            if found == ADMIN:
                return Caller(None, True, ADMIN, key_id(key))
            return Caller(found, False, found, key_id(key))
        if self.anonymous:  # no identity: anonymous callers share one owner
            return Caller(self.anonymous, False, self.anonymous, ANONYMOUS_OWNER)
        return None


def key_id(key: str) -> str:
    """The stored identity of an API key (conversation owner): a SHA-256 digest of it."""
    return "key:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def validate_label(label, where: str = "label") -> str:
    """`label` as a usable audience label (`preuve.models.validate_label`: one grammar for
    documents, keys and searches), else a ConfigError naming `where`."""
    try:
        return models.validate_label(label, f"{where}:")
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _masked(key: str) -> str:
    """A key as it may appear in an error message: its first characters only."""
    return repr(key[:4] + "…")


def parse_keys(text: str) -> dict[str, str]:
    """`key1:public,key2:staff` -> {key1: public, key2: staff}."""
    keys = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, sep, label = item.rpartition(":")
        if not sep or not key.strip() or not label.strip():
            raise ConfigError(f"PREUVE_API_KEYS: {item.split(':')[0][:4]}…: expected KEY:AUDIENCE")
        keys[key.strip()] = label.strip()
    return keys


def load_config(source: str | os.PathLike | dict | ServerConfig | None = None,
                env: dict | None = None, settings: Settings | None = None) -> ServerConfig:
    """Settings from a YAML file (or a dict), then the api_keys and anonymous of
    `settings` (PREUVE_API_KEYS / PREUVE_ANONYMOUS; read from `env` when it is given,
    else from the environment)."""
    if isinstance(source, ServerConfig):
        return source
    if settings is None or env is not None:
        settings = Settings.load(env=env)
    data: dict = {}
    if isinstance(source, dict):
        data = dict(source)
    elif source is not None:
        path = Path(source)
        try:
            data = read_mapping(path)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if data.get("upload_dir") and not os.path.isabs(str(data["upload_dir"])):
            data["upload_dir"] = str(path.parent / str(data["upload_dir"]))
    known = set(ServerConfig.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"unknown setting(s): {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(known))})")
    keys = {str(k): str(v) for k, v in (data.pop("api_keys", None) or {}).items()}
    keys.update(parse_keys(settings.api_keys))
    if settings.anonymous:
        data["anonymous"] = settings.anonymous
    return ServerConfig(api_keys=keys, **data)
