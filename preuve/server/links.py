"""Links the server hands out: into its own viewer, never the server's disk.

Over HTTP and MCP a `file://` URL would tell a caller where the server keeps its files, so
answers are linked for them when they are made (`Index.ask(link=...)`: the viewer's
`views.viewer_link`, the MCP server's `answer.links.relative_link`), and any `file:` link
left in a text (a model's own, a turn stored by an older version) is reduced to its label.
"""

from __future__ import annotations

import re

# a Markdown link to a local file: [label](file:///srv/docs/x.md#L3) -> label
_FILE_LINK = re.compile(r"\[([^\]\n]*)\]\(file:[^)\s]*\)")


def strip_file_links(text: str) -> str:
    """`text` with every Markdown link to a `file:` URL reduced to its label."""
    return _FILE_LINK.sub(r"\1", text)

