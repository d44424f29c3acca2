"""Links the server hands out: into its own viewer, never the server's disk.

The answer pipeline links citations to `file://` URLs of the folders it indexed (handy in a
terminal). Over HTTP and MCP those would tell a caller where the server keeps its files, so
answers and conversation histories are relinked here before they leave the process.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote

# a Markdown link to a local file: [label](file:///srv/docs/x.md#L3) -> label
_FILE_LINK = re.compile(r"\[([^\]\n]*)\]\(file:[^)\s]*\)")
# a viewer link of this server: /files/<id>… or /passages/<id>… (no //host, no /\host)
_VIEWER_LINK = re.compile(r"^/(files|passages)/[^/\\\s][^\\\s]*$")


def relink(text: str, citations: list[dict], link_of: Callable[[dict], str]) -> str:
    """`text` with each citation's link replaced by `link_of(citation)` (also stored in the
    citation), and any link to a `file:` URL left over reduced to its label."""
    for citation in citations:
        old, new = citation.get("link"), link_of(citation)
        if old:
            text = text.replace(f"]({old})", f"]({new})")
        citation["link"] = new
    return _FILE_LINK.sub(r"\1", text)


def is_viewer_link(url: str) -> bool:
    """A same-origin link into the viewer (what the page turns into a citation link)."""
    return bool(_VIEWER_LINK.match(url))


def relative_link(citation: dict) -> str:
    """A citation's link without the server's folders: the document's relative path with
    the fragment (`#L3-L9`, `#page=2`) its link had; '' when it had none."""
    old = citation.get("link") or ""
    if not old.startswith("file:") or not citation.get("path"):
        return old
    fragment = old.partition("#")[2]
    return quote(citation["path"]) + (f"#{fragment}" if fragment else "")
