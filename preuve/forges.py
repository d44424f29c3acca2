"""Code hosts ("forges") and their URLs: one place for the list.

Ingest uses it to pin a file of a git repository to the commit it was indexed at
(`file_url`: ``https://github.com/org/repo/blob/<commit>/path``); links use it to write a
line range the way the host's viewer reads it (`line_anchor`).

| forge     | file at a commit                  | lines 18 to 25   |
| --------- | --------------------------------- | ---------------- |
| github    | ``/<org>/<repo>/blob/<sha>/path`` | ``#L18-L25``     |
| gitlab    | ``/<group>/<repo>/-/blob/<sha>/path`` | ``#L18-25``  |
| gitea     | ``/<org>/<repo>/src/commit/<sha>/path`` | ``#L18-L25`` (Forgejo, Codeberg) |
| bitbucket | ``/<org>/<repo>/src/<sha>/path``  | ``#lines-18:25`` |

A remote's forge is known by its host name (`github.com`, a host containing `gitlab`,
`bitbucket`, `gitea`, `forgejo` or `codeberg`); a self-hosted one with another name is
named in the repository's git configuration: ``git config preuve.forge gitlab``.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

__all__ = ["FORGES", "file_url", "forge_of", "line_anchor", "web_root"]

# name -> (host name markers, path from the repository root to a file at a commit)
FORGES: dict[str, tuple[tuple[str, ...], str]] = {
    "github": (("github",), "blob/{commit}"),
    "gitlab": (("gitlab",), "-/blob/{commit}"),
    "gitea": (("gitea", "forgejo", "codeberg"), "src/commit/{commit}"),
    "bitbucket": (("bitbucket",), "src/{commit}"),
}
# scp-like ssh remotes: git@github.com:org/repo.git
_SCP = re.compile(r"^(?:[^@/\s]+@)?(?P<host>[^:/\s]+):(?P<path>[^/\s].*)$")


def web_root(remote: str) -> tuple[str, str] | None:
    """(host, "org/repo") of a remote URL in any of git's forms (https, ssh://, scp-like
    git@host:org/repo.git, git://), without credentials or `.git`; None for a local path
    or a URL that names no repository."""
    remote = remote.strip()
    if "://" in remote:
        parts = urlsplit(remote)
        if parts.scheme == "file" or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
    else:
        found = _SCP.match(remote)
        if not found or "/" in found["host"]:
            return None
        host, path = found["host"].lower(), found["path"]
    path = path.strip("/").removesuffix(".git").strip("/")
    if path.count("/") < 1 or ".." in path.split("/"):
        return None
    return host, path


def forge_of(remote: str, configured: str | None = None) -> str | None:
    """The forge a remote is hosted on (`configured`, from `git config preuve.forge`, wins),
    or None when its host is not one this module knows."""
    if configured and configured.strip().lower() in FORGES:
        return configured.strip().lower()
    root = web_root(remote)
    if root is None:
        return None
    host = root[0]
    for name, (markers, _) in FORGES.items():
        if any(m in host for m in markers):
            return name
    return None


def file_url(remote: str, commit: str, path: str, forge: str) -> str | None:
    """The web page of `path` (in-repository, forward slashes) at `commit`, over https."""
    root = web_root(remote)
    if root is None or forge not in FORGES:
        return None
    host, repo = root
    at = FORGES[forge][1].format(commit=commit)
    return f"https://{host}/{repo}/{at}/{quote(path.lstrip('/'), safe='/')}"


def line_anchor(url: str, start: int, end: int) -> str:
    """`#L18-L25` or the host's own form for the page at `url` (a file URL or a base such
    as ``https://gitlab.com/org/repo/-/blob/<sha>``); one line is `#L18` (`#lines-18`)."""
    parts = urlsplit(url) if url else None
    host = (parts.hostname or "") if parts else ""
    path = parts.path if parts else ""
    forge = next((name for name, (markers, _) in FORGES.items()
                  if any(m in host for m in markers)), None)
    if forge is None:  # a self-hosted instance: the URL's own shape says which
        forge = ("gitlab" if "/-/blob/" in path else
                 "gitea" if "/src/commit/" in path else
                 "bitbucket" if re.search(r"^/[^/]+/[^/]+/src/[0-9a-f]{7,64}(/|$)", path)
                 else "github")
    if forge == "bitbucket":
        return f"#lines-{start}" if start == end else f"#lines-{start}:{end}"
    if start == end:
        return f"#L{start}"
    if forge == "gitlab":
        return f"#L{start}-{end}"
    return f"#L{start}-L{end}"
