"""BM25F in memory for both stores: the keyword engine, derived from the store's rows.

FTS5's `bm25()` and PostgreSQL's sparse inner product score every row that matches a query
term: at a million chunks an OR query over a common word reads a third of the collection
(0.2-1.2 s). This engine keeps, per term, the rows that hold it and how many times, with
the rows' filter columns as numpy arrays (the same columns and mask as dense search:
`preuve.columns`). A query is a handful of vector operations over the postings of its
terms, the filters applied before the top k is cut. BM25F (Robertson & Zaragoza) over two
fields of a chunk: its title field, the context words ingest puts first in `tokens` (path,
document title, heading path, symbol; the `title_tokens` column counts them), and its body
(`scoring.py` has the formula).

The modules, in tantivy's words:

- `segment.py`: an immutable inverted index over some rows, and its build;
- `scoring.py`, `selection.py`: BM25F scoring and top-k selection, pure numpy functions;
- `searcher.py`: the segments of one store state and the search over them, statistics per
  access label (a caller's scores never depend on chunks it may not read);
- `changes.py`: the change log each ingest writes in the store with its own transaction;
- `files.py`: the saved segments and what derives from them (the only module on disk);
- `reader.py`: the searcher of the current state, one reader per index per process, with
  its reload and merge policies.

It is derived, never trusted: the store keys it on its state (generation and a random
token drawn by every write), and reads the winners' rows back under the caller's filters
in the same snapshot; a file is only used for the state it was made for.
"""

from preuve.keyword.changes import LOG_KEEP, LOG_PREFIX, log_entry
from preuve.keyword.files import SAVE_MIN_ROWS, cache_path, snapshot_path
from preuve.keyword.reader import (
    FALLBACK,
    IndexReader,
    MergePolicy,
    ReloadPolicy,
    Snapshot,
    release,
    shared,
)
from preuve.keyword.searcher import Searcher
from preuve.keyword.segment import Segment

__all__ = ["FALLBACK", "LOG_KEEP", "LOG_PREFIX", "SAVE_MIN_ROWS", "IndexReader", "MergePolicy",
           "ReloadPolicy", "Searcher", "Segment", "Snapshot", "cache_path", "log_entry",
           "release", "shared", "snapshot_path"]
