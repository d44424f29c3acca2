"""The routes of the HTTP API, one `APIRouter` per group; `app.create_app` includes them."""
