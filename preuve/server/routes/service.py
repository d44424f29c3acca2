"""Service routes: liveness, metrics, who the key reads as."""

from __future__ import annotations

from fastapi import APIRouter

from preuve.server.state import App, Who

router = APIRouter(tags=["service"])


@router.get("/health")
def health(app: App):
    """Liveness: the index opens and answers a query."""
    return {"status": "ok", "schema_version": app.engine(lambda ix: ix.engine.schema_version)}


@router.get("/metrics")
def get_metrics(app: App, who: Who):
    """Request counts and latencies per route (admin routes: admin keys only); stage
    latencies of answers."""
    return app.metrics.to_dict(admin=who.admin)


@router.get("/me")
def me(app: App, who: Who):
    """The audience your key reads as."""
    return {"audience": who.name, "admin": who.admin, "vectors": app.pool.has_vectors()}
