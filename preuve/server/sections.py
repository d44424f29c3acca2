"""The section of an HTML document the viewer shows around a cited passage: the text
blocks the index read (`preuve.ingest.html.html_blocks`), the cited ones marked.

The whole document when it is short enough; else the narrowest enclosing section that is
(the blocks under the heading of that level above the citation, up to the next heading of
that level or higher); else a window of blocks around the citation.
"""

from __future__ import annotations

from preuve.ingest.html import Block

MAX_BLOCKS = 400  # blocks shown at most


def html_section(blocks: list[Block], start: int | None, end: int | None,
                 limit: int = MAX_BLOCKS) -> list[tuple[Block, bool]]:
    """(block, cited) for the blocks of the section holding source lines `start`-`end`
    (None: the document's first blocks, nothing cited)."""
    cited = [start is not None and end is not None and b.first <= end and b.last >= start
             for b in blocks]
    marked = [i for i, c in enumerate(cited) if c]
    if not marked:
        return [(b, False) for b in blocks[:limit]]
    lo, hi = marked[0], marked[-1]
    first, stop = 0, len(blocks)
    for level in range(1, 7):
        if stop - first <= limit:
            break
        first = next((i for i in range(lo, -1, -1) if 0 < blocks[i].level <= level), first)
        stop = next((i for i in range(hi + 1, len(blocks))
                     if 0 < blocks[i].level <= level), stop)
    if stop - first > limit:  # one huge section: a window around the citation
        first = max(first, lo - limit // 4)
        stop = min(stop, max(hi + 1, first + limit))
    return [(blocks[i], cited[i]) for i in range(first, stop)]
