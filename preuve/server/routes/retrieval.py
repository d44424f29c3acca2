"""Retrieval routes: search, where, and the methods compared side by side."""

from __future__ import annotations

from fastapi import APIRouter

from preuve.server.routes.models import CompareRequest, SearchRequest, WhereRequest
from preuve.server.state import App, Who
from preuve.server.views import public_hit

router = APIRouter(tags=["retrieval"])


@router.post("/search")
def search(app: App, who: Who, body: SearchRequest):
    """Best passages for a query, filtered by your audience."""
    app.check_method(body.method)
    hits = app.engine(lambda ix: ix.search(body.query, method=body.method, k=body.k,
                                           as_of=body.as_of, audience=who.audience,
                                           paths=body.paths, kinds=body.kinds))
    return {"hits": [public_hit(h) for h in hits]}


@router.post("/where")
def where(app: App, who: Who, body: WhereRequest):
    """Code locations for a subject."""
    app.check_method(body.method)
    hits = app.engine(lambda ix: ix.where(body.subject, k=body.k, as_of=body.as_of,
                                          audience=who.audience, paths=body.paths,
                                          method=body.method, kinds=body.symbol_kinds,
                                          languages=body.languages))
    return {"hits": [public_hit(h) for h in hits]}


@router.post("/compare")
def compare(app: App, who: Who, body: CompareRequest):
    """Top k of bm25, dense and hybrid side by side (dense and hybrid need vectors)."""
    methods = app.engine(lambda ix: ix.compare(body.question, k=body.k, as_of=body.as_of,
                                               audience=who.audience))
    return {"vectors": methods["dense"] is not None,
            "methods": {m: None if hits is None else [public_hit(h) for h in hits]
                        for m, hits in methods.items()}}
