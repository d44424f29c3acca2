"""The audience boundary of the HTTP server against hostile use (issue 10), on both stores,
through a real uvicorn server on 127.0.0.1: conversations and feedback owned by the key that
gave them (feedback citing only what the key may read), admin-only metrics detail, upload
labels, the viewer serving only what was indexed, links that stay on this server, bounded
request fields, zip bombs, and the recovery of uploads a killed server left half done."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import httpx
import pytest
from conftest import UNLIMITED, copy_index, rows

from preuve.server.app import create_app
from preuve.server.runner import ServerThread

KEYS = {"pub-key-1": "public", "pub-key-2": "public", "staff-key-3": "staff",
        "admin-key-4": "admin"}
PUB1, PUB2, STAFF, ADMIN = ({"X-API-Key": k} for k in KEYS)
QUESTION = "Combien de jours de télétravail par semaine ?"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(index_path, tmp_path_factory):
    """(url, index location, upload folder): a server over a private copy of the index."""
    path = copy_index(index_path, tmp_path_factory.mktemp("secure") / "index.sqlite")
    uploads = tmp_path_factory.mktemp("uploads")
    app = create_app(path, {"api_keys": KEYS, "max_upload_mb": 0.5,
                            "upload_dir": str(uploads), **UNLIMITED})
    with ServerThread(app) as url:
        yield url, path, uploads


@pytest.fixture(scope="module")
def http(site):
    with httpx.Client(base_url=site[0], timeout=30) as client:
        yield client


def upload(http, name: str, text: str, access: str | None = None) -> httpx.Response:
    data = {"access": access} if access is not None else None
    return http.post("/documents", headers=ADMIN, data=data,
                     files={"file": (name, text.encode(), "text/markdown")})


# --------------------------------------------------------------------------- conversations
def test_a_conversation_belongs_to_the_key_that_opened_it(http, site):
    cid = http.post("/conversations", headers=PUB1).json()["id"]
    r = http.post(f"/conversations/{cid}/messages", json={"question": QUESTION},
                  headers=PUB1)
    assert r.status_code == 200 and not r.json()["refused"]
    assert len(http.get(f"/conversations/{cid}", headers=PUB1).json()["messages"]) == 2
    missing = http.get("/conversations/000000000000", headers=PUB1).json()
    # the other public key (same audience) gets exactly "no such conversation"
    for headers in (PUB2, STAFF, ADMIN):
        r = http.get(f"/conversations/{cid}", headers=headers)
        assert r.status_code == 404 and r.json() == missing
        r = http.post(f"/conversations/{cid}/messages", json={"question": "Et ensuite ?"},
                      headers=headers)
        assert r.status_code == 404 and r.json() == missing
    # the store keeps a digest of the key, never the key
    (row,) = rows(site[1], "SELECT audience, owner FROM conversations WHERE id = ?", (cid,))
    assert row["audience"] == "public" and row["owner"].startswith("key:")
    assert "pub-key-1" not in json.dumps(row)


def test_histories_link_into_this_server_not_its_disk(http, site):
    cid = http.post("/conversations", headers=PUB1).json()["id"]
    answer = http.post(f"/conversations/{cid}/messages", json={"question": QUESTION},
                       headers=PUB1).json()
    history = http.get(f"/conversations/{cid}", headers=PUB1)
    assert history.status_code == 200
    assert "file:" not in history.text and "/tmp" not in history.text
    said = history.json()["messages"][1]
    assert said["content"] == answer["answer"]
    links = [c["link"] for c in said["data"]["citations"]]
    assert links and all(link.startswith(("/files/", "/passages/")) for link in links)
    assert http.get(links[0], headers=PUB1).status_code == 200


# ------------------------------------------------------------------------------- metrics
def test_metrics_detail_of_admin_routes_is_for_admin_keys(http):
    assert upload(http, "metrics-note.md", "# Note\n\nUn mot: quinconce.\n",
                  "staff").status_code == 201
    # a route every caller uses, called here (with pytest-xdist the tests before this one
    # may have run in another worker, against another server)
    assert http.post("/conversations", headers=PUB1).status_code in (200, 201)
    public = http.get("/metrics", headers=PUB1).json()["routes"]
    admin = http.get("/metrics", headers=ADMIN).json()["routes"]
    assert admin["POST /documents"]["count"] >= 1
    assert "POST /documents" not in public and "DELETE /documents/{doc_id}" not in public
    assert not any("unmatched" in route for route in public)
    assert public["POST /conversations"]["count"] >= 1  # the rest is still shown


# ------------------------------------------------------------------------------ feedback
RETURNS = "Quel est le délai de retour d'un produit ?"


def test_feedback_is_read_back_only_by_the_key_that_gave_it_and_the_admin(http, site):
    answer = http.post("/ask", json={"question": RETURNS}, headers=PUB1).json()
    assert not answer["refused"] and answer["citations"]
    # the answer's citations are sent as the API gave them (extra fields ignored)
    r = http.post("/feedback", headers=PUB1, json={
        "question": RETURNS, "answer": answer["answer"], "citations": answer["citations"],
        "verdict": "wrong", "comment": "45 jours depuis novembre"})
    assert r.status_code == 201, r.text
    given = r.json()
    assert given["audience"] == "public" and "owner" not in given
    staff = http.post("/feedback", headers=STAFF, json={
        "question": "q", "answer": "a", "verdict": "incomplete",
        "citations": [{"path": "handbook/escalade-retours.md", "label": "escalade"}]})
    assert staff.status_code == 201, staff.text

    mine = http.get("/feedback", headers=PUB1).json()["items"]
    assert [i["id"] for i in mine] == [given["id"]]
    assert mine[0]["citations"][0]["path"] == answer["citations"][0]["path"]
    # the other public key reads none of it, not even a count
    other = http.get("/feedback", headers=PUB2)
    assert other.status_code == 200 and other.json() == {"items": []}
    assert http.get("/feedback?verdict=wrong", headers=PUB2).json() == {"items": []}
    everything = http.get("/feedback", headers=ADMIN).json()["items"]
    assert {given["id"], staff.json()["id"]} <= {i["id"] for i in everything}
    assert [i["audience"] for i in http.get("/feedback?audience=staff&verdict=incomplete",
                                            headers=ADMIN).json()["items"]] == ["staff"]
    # stored with the audience and a digest of the key, never the key
    (row,) = rows(site[1], "SELECT audience, owner, channel, verdict, comment FROM feedback "
                           "WHERE id = ?", (given["id"],))
    assert row["audience"] == "public" and row["owner"].startswith("key:")
    assert row["channel"] == "http" and row["verdict"] == "wrong"
    assert "pub-key-1" not in json.dumps(rows(site[1], "SELECT * FROM feedback"))


def test_feedback_cannot_cite_or_probe_what_the_key_may_not_read(http, site):
    before = rows(site[1], "SELECT COUNT(*) AS n FROM feedback")[0]["n"]
    hidden = http.post("/feedback", headers=PUB1, json={
        "question": "q", "answer": "a", "verdict": "right",
        "citations": [{"path": "handbook/escalade-retours.md", "label": "L"}]})
    missing = http.post("/feedback", headers=PUB1, json={
        "question": "q", "answer": "a", "verdict": "right",
        "citations": [{"path": "handbook/absent.md", "label": "L"}]})
    assert hidden.status_code == missing.status_code == 400
    assert hidden.json() == missing.json()  # the same words for hidden and absent
    for body in ({"question": "q", "answer": "a", "verdict": "right", "audience": "staff"},
                 {"question": "q", "answer": "a", "verdict": "right", "owner": "key:x"},
                 {"question": "q", "answer": "a", "verdict": "bof"},
                 {"question": "q", "answer": "a", "verdict": "right", "comment": "x" * 5000},
                 {"question": "q", "answer": "a", "verdict": "right",
                  "citations": [{"path": "p"}] * 100}):
        r = http.post("/feedback", headers=PUB1, json=body)
        assert r.status_code == 422 and r.json()["error"].startswith("bad request"), r.text
    assert http.post("/feedback", json={"question": "q", "answer": "a", "verdict": "right"}
                     ).status_code == 401
    assert rows(site[1], "SELECT COUNT(*) AS n FROM feedback")[0]["n"] == before


# -------------------------------------------------------------------------- upload labels
PUBLIC_FRONT = "---\naccess: public\n---\n\n# Avis\n\nLe code du portail est {word}.\n"


def test_an_upload_label_that_conflicts_with_the_file_is_refused(http, site):
    before = rows(site[1], "SELECT COUNT(*) AS n FROM documents")[0]["n"]
    r = upload(http, "portail.md", PUBLIC_FRONT.format(word="zircophane"), access="staff")
    assert r.status_code == 400
    assert "access: 'public'" in r.json()["error"] and "access='staff'" in r.json()["error"]
    assert rows(site[1], "SELECT COUNT(*) AS n FROM documents")[0]["n"] == before
    assert not (site[2] / "portail.md").exists()
    for headers in (PUB1, STAFF):
        assert not http.post("/search", json={"query": "zircophane"},
                             headers=headers).json()["hits"]
    # a file without a label of its own takes the form's; agreeing labels are fine
    r = upload(http, "portail.md", "# Avis\n\nLe code du portail est zircophane.\n", "staff")
    assert r.status_code == 201 and r.json()["document"]["access"] == "staff"
    assert not http.post("/search", json={"query": "zircophane"}, headers=PUB1).json()["hits"]
    r = upload(http, "portail.md", PUBLIC_FRONT.format(word="zircophane"), "public")
    assert r.status_code == 201 and r.json()["document"]["access"] == "public"
    # a reserved or malformed label in the form is a clear 400
    for bad in ("all", "Staff!", "x" * 65):
        r = upload(http, "autre.md", "# Autre\n\nTexte.\n", bad)
        assert r.status_code in (400, 422) and "access" in r.json()["error"]


# ---------------------------------------------------------- the viewer serves the index
def test_an_edit_on_disk_is_not_served_under_the_indexed_label(http, site):
    text = PUBLIC_FRONT.format(word="ostracode")
    doc = upload(http, "avis.md", text).json()["document"]
    assert doc["access"] == "public"
    assert http.get(f"/files/{doc['doc_id']}", headers=PUB1).text == text
    # the file now says staff and holds a secret; nobody re-ingested it
    (site[2] / "avis.md").write_text("---\naccess: staff\n---\n\nSECRET: vanadinite-77\n")
    for route in (f"/files/{doc['doc_id']}", f"/passages/{doc['doc_id']}?start=1&end=3"):
        for headers in (PUB1, ADMIN):
            r = http.get(route, headers=headers)
            assert r.status_code == 409, (route, r.text)
            assert "vanadinite" not in r.text and "changed on disk" in r.json()["error"]
    # the indexed bytes back on disk: served again
    (site[2] / "avis.md").write_text(text)
    assert http.get(f"/files/{doc['doc_id']}", headers=PUB1).text == text
    assert "ostracode" in http.get(f"/passages/{doc['doc_id']}?start=1",
                                   headers=PUB1).text


# -------------------------------------------------------------------- links and framing
def test_the_page_follows_only_links_into_its_viewer(http):
    js = http.get("/static/app.js").text
    pattern = re.search(r"var VIEWER_LINK = (/.*/);", js).group(1)
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is needed to run the page's link check")
    cases = {"/files/teletravail#page=2": True, "/passages/conges?start=1&end=2": True,
             "//evil.example/x": False, "/\\evil.example": False, "/files//evil": False,
             "javascript:alert(1)": False, "https://evil.example": False,
             "file:///etc/passwd": False, "/passages/\\\\evil": False, "/admin": False}
    script = f"var re = {pattern}; console.log(JSON.stringify(" \
             f"{json.dumps(list(cases))}.map(function (u) {{ return re.test(u); }})));"
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30)
    assert json.loads(out.stdout) == list(cases.values())
    page = http.get("/").text
    frame = re.search(r"<iframe[^>]*passage-frame[^>]*>", page).group(0)
    assert 'sandbox="' in frame and "allow-top-navigation" not in frame
    # a frame with both could remove its own sandbox: neither the page nor its script
    # (which sets the attribute when it opens a passage) ever gives both
    given = re.search(r'var SANDBOX = "([^"]*)"', js).group(1)
    for tokens in (re.search(r'sandbox="([^"]*)"', frame).group(1).split(), given.split()):
        assert not {"allow-scripts", "allow-same-origin"} <= set(tokens), tokens
    assert "removeAttribute(\"sandbox\")" not in js


# --------------------------------------------------------------------- bounded requests
def test_long_names_and_long_lists_are_4xx_not_500(http):
    r = http.post("/documents", headers=ADMIN,
                  files={"file": ("é" * 150 + ".md", b"# x\n\nwords here\n", "text/markdown")})
    assert r.status_code == 400 and "too long" in r.json()["error"]
    for body in ({"query": "congés", "paths": [f"p{i}" for i in range(1000)]},
                 {"query": "congés", "paths": ["x" * 5000]},
                 {"query": "congés", "kinds": ["pdf"] * 1000},
                 {"query": "congés", "as_of": "9" * 5000}):
        r = http.post("/search", json=body, headers=PUB1)
        assert r.status_code == 422 and r.json()["error"].startswith("bad request"), r.text
    r = http.post("/ask", json={"question": QUESTION, "paths": ["p"] * 1000}, headers=PUB1)
    assert r.status_code == 422
    r = http.get("/passages/conges?chunk=" + "c" * 5000, headers=PUB1)
    assert r.status_code == 400


def zip_bomb(unpacked_mb: int) -> bytes:
    """A DOCX-shaped zip whose document.xml unpacks to `unpacked_mb` MB of spaces."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            block = b" " * (1024 * 1024)
            for _ in range(unpacked_mb):
                member.write(block)
    return out.getvalue()


def test_a_zip_bomb_docx_is_refused_before_it_is_parsed(http, site):
    bomb = zip_bomb(300)
    assert len(bomb) < 0.5 * 1024 * 1024  # under the upload limit: only unpacking is big
    r = http.post("/documents", headers=ADMIN,
                  files={"file": ("bombe.docx", bomb, "application/octet-stream")})
    assert r.status_code == 413 and "unpacks to 315 MB" in r.json()["error"]
    assert not (site[2] / "bombe.docx").exists()
    assert not [p for p in (site[2] / ".staging").iterdir()]


# ------------------------------------------------------------------ start-up recovery
def test_start_up_settles_an_upload_a_crash_left_half_done(site, tmp_path):
    """The state a kill -9 leaves between the rename and the commit: the new bytes at the
    name, the previous ones in the journal's backup, the index still on the previous."""
    path = site[1]
    folder = tmp_path / "up"
    first = create_app(path, {"api_keys": KEYS, "upload_dir": str(folder), **UNLIMITED})
    old = PUBLIC_FRONT.format(word="mirabelle")
    with ServerThread(first) as url, httpx.Client(base_url=url) as client:
        doc = upload(client, "crash.md", old).json()["document"]
    secret = "---\naccess: staff\n---\n\nSECRET: ouananiche-19\n"
    staging = folder / ".staging"
    (staging / "e1.old").write_text(old)
    (folder / "crash.md").write_text(secret)
    (staging / "e1.journal").write_text(json.dumps({"name": "crash.md", "backup": "e1.old"}))
    (staging / "e2.new").write_text("a stranded upload")
    (staging / "e3.journal").write_text(json.dumps({"name": "gone.md", "backup": None}))
    (folder / "gone.md").write_text("an upload whose ingest never committed")
    second = create_app(path, {"api_keys": KEYS, "upload_dir": str(folder), **UNLIMITED})
    assert (folder / "crash.md").read_text() == old
    assert not (folder / "gone.md").exists() and not list(staging.iterdir())
    with ServerThread(second) as url, httpx.Client(base_url=url) as client:
        r = client.get(f"/files/{doc['doc_id']}", headers=PUB1)
        assert r.status_code == 200 and r.text == old


# ------------------------------------------------ the viewer's page images and HTML text
STAFF_HTML = ("<html><head><script>document.title='pwned-by-script'</script></head><body>"
              "<main><h1>Coffre</h1><p>Le code du coffre est <b>tellurite-41</b>.</p>"
              "<script>alert('pwned')</script></main></body></html>")


def small_pdf(sentence: str) -> bytes:
    """A one-page PDF holding `sentence` (fpdf2, a real PDF for pdfium)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=14)
    pdf.multi_cell(0, 8, sentence)
    return bytes(pdf.output())


@pytest.fixture(scope="module")
def staff_views(http):
    """Ids of a staff PDF and a staff HTML page, uploaded by the admin key."""
    ids = {}
    for name, data in (("coffre.pdf", small_pdf("Le code du coffre est tellurite-41.")),
                       ("coffre.html", STAFF_HTML.encode())):
        r = http.post("/documents", headers=ADMIN, data={"access": "staff"},
                      files={"file": (name, data, "application/octet-stream")})
        assert r.status_code == 201, r.text
        ids[name.rsplit(".", 1)[1]] = r.json()["document"]["doc_id"]
    return ids


def test_page_images_and_html_text_follow_the_audience_boundary(http, site, staff_views):
    """A public key gets of a staff document's page image, page view or HTML text exactly
    what it gets for a document that does not exist, whether the staff key had the page
    rendered (and cached) first or not, by header or by the viewer's cookie."""
    pdf, page = staff_views["pdf"], staff_views["html"]
    routes = [f"/pages/{pdf}?page=1", f"/pages/{pdf}?page=1&width=480",
              f"/passages/{pdf}?page=1", f"/passages/{page}?start=1&end=1",
              f"/passages/{page}"]
    missing = {r: http.get(r.replace(pdf, "no-such-doc").replace(page, "no-such-doc"),
                           headers=PUB1) for r in routes}
    for route in routes:  # before and after the staff key's views filled the cache
        for headers in (PUB1, PUB1, STAFF):
            r = http.get(route, headers=headers)
            if headers is STAFF:
                assert r.status_code == 200, (route, r.text)
                continue
            assert r.status_code == 404 and r.json() == missing[route].json(), route
            assert "tellurite" not in r.text and "coffre" not in r.text
    with httpx.Client(base_url=site[0], cookies={"preuve_key": "pub-key-1"}) as c:
        for route in routes:
            assert c.get(route).status_code == 404
    with httpx.Client(base_url=site[0], cookies={"preuve_key": "staff-key-3"}) as c:
        r = c.get(f"/pages/{pdf}?page=1")  # the image the page's frame loads by cookie
        assert r.status_code == 200 and r.content.startswith(b"\x89PNG")
    # the staff key reads the HTML as text: no tag, no script of the document
    r = http.get(f"/passages/{page}?start=1&end=1", headers=STAFF)
    assert "tellurite-41" in r.text and "<b>" not in r.text and "pwned" not in r.text
    assert "script-src" not in r.headers["content-security-policy"]
    assert r.headers["content-security-policy"].startswith("default-src 'none'")


@pytest.mark.parametrize("path", [
    "/pages/..%2Ffiles%2F{pdf}?page=1", "/pages/%2e%2e%2ffiles%2f{pdf}?page=1",
    "/pages/{pdf}%00?page=1", "/pages/{pdf}%2F..%2F{pdf}?page=1", "/pages/%2F{pdf}?page=1",
    "/pages/{pdf}/../{pdf}?page=1", "/passages/..%2F{html}?start=1",
    "/passages/{html}%2F?start=1", "/pages/{html}?page=1", "/pages/{pdf}?page=0",
    "/pages/{pdf}?page=2", "/pages/{pdf}?page=1&width=123456",
])
def test_no_path_trick_reaches_a_staff_page(site, staff_views, path):
    """Dots, encoded slashes, a NUL, a page or width out of range: a public key gets no
    byte of the staff document, and no answer that differs from an unknown document's."""
    path = path.format(**staff_views)
    with httpx.Client(base_url=site[0]) as client:
        seen = client.get(f"/pages/{staff_views['pdf']}?page=1", headers=STAFF)
        assert seen.status_code == 200  # the route is there: its audience is what refuses
        request = client.build_request("GET", site[0] + path, headers=PUB1)
        request.url = httpx.URL(site[0] + path)  # the client must not normalise the dots
        r = client.send(request, follow_redirects=True)  # a trailing slash: redirected
    assert r.status_code in (400, 404, 422), (path, r.status_code)
    assert not r.content.startswith(b"\x89PNG") and "tellurite" not in r.text
    if r.status_code == 404:
        assert r.json() in ({"error": "no such document"}, {"error": "Not Found"})


def test_a_cached_page_image_is_not_served_once_its_file_changed(http, site):
    """A page rendered (and cached) while the PDF was the indexed one is refused like the
    file itself once the bytes on disk change (409), and served again when they are back."""
    original = small_pdf("Le portail ouvre à huit heures.")
    r = http.post("/documents", headers=ADMIN, data={"access": "public"},
                  files={"file": ("portail.pdf", original, "application/pdf")})
    assert r.status_code == 201, r.text
    doc_id = r.json()["document"]["doc_id"]
    first = http.get(f"/pages/{doc_id}?page=1", headers=PUB1)
    assert first.status_code == 200 and first.content.startswith(b"\x89PNG")
    (site[2] / "portail.pdf").write_bytes(small_pdf("SECRET: le code est wulfenite-12."))
    for route in (f"/pages/{doc_id}?page=1", f"/passages/{doc_id}?page=1"):
        r = http.get(route, headers=PUB1)
        assert r.status_code == 409 and "changed on disk" in r.json()["error"], route
    (site[2] / "portail.pdf").write_bytes(original)
    assert http.get(f"/pages/{doc_id}?page=1", headers=PUB1).content == first.content
