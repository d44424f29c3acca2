"""The web page in headless Chromium (Debian's chromium + chromedriver, no download): ask a
question on the sample corpus, watch the answer stream in, click a citation and check the
passage viewer: a PDF page fitted to the panel with the passage's boxes, an HTML page as
text with the passage highlighted, Markdown lines highlighted, each scrolled into view in a
frame that runs no script; snippets, the refusal's reason in the page's language, the icon.

`PREUVE_SCREENSHOT=docs` also saves screenshots of the answer page with the panel open
(`python docs/screenshot.py` does that)."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import httpx
import pytest
from conftest import copy_index

from preuve.server.app import create_app
from preuve.server.runner import ServerThread

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
KEY = "browser-public-key"

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="headless browser test needs Debian's chromium and chromium-driver "
           "(apt-get install chromium chromium-driver)")

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def site(sqlite_index_path, tmp_path_factory):
    # the web page over the HTTP API: the stores behind it are tested by test_server.py
    path = copy_index(sqlite_index_path, tmp_path_factory.mktemp("browser") / "index.sqlite")
    app = create_app(path, {"api_keys": {KEY: "public"}})
    with ServerThread(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,900",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def ask(driver, site: str, question: str) -> str:
    """Ask on the page; return the final state of the answer box (done/refused/error)."""
    wait = WebDriverWait(driver, 20)
    driver.get(site + "/?lang=fr")
    key = driver.find_element(By.ID, "api-key")
    key.clear()
    key.send_keys(KEY)
    driver.find_element(By.ID, "save-key").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "key-status"), "public"))
    box = driver.find_element(By.ID, "question")
    box.clear()
    box.send_keys(question)
    driver.find_element(By.ID, "ask").click()
    wait.until(lambda d: d.find_element(By.ID, "answer").get_attribute("data-state")
               in ("done", "refused", "error"))
    return driver.find_element(By.ID, "answer").get_attribute("data-state")


def in_frame(driver, check):
    """`check(driver)` run inside the passage viewer's frame."""
    driver.switch_to.frame(driver.find_element(By.ID, "passage-frame"))
    try:
        return check(driver)
    finally:
        driver.switch_to.default_content()


def on_screen(driver, element) -> bool:
    """Is `element` inside the frame's visible area (scrolled into view)?"""
    return driver.execute_script(
        "var r = arguments[0].getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;", element)


def sandbox_is_safe(driver) -> bool:
    tokens = driver.find_element(By.ID, "passage-frame").get_attribute("sandbox").split()
    return not ("allow-scripts" in tokens and "allow-same-origin" in tokens)


def save_screenshot(driver, name: str) -> None:
    """With PREUVE_SCREENSHOT=<folder or file.png>, save the page as it is now (the
    passage panel open) under that folder as `name` (docs/screenshot.py)."""
    shot = os.environ.get("PREUVE_SCREENSHOT")
    if not shot:
        return
    target = Path(shot) / name if not shot.endswith(".png") else Path(shot)
    target.parent.mkdir(parents=True, exist_ok=True)
    time.sleep(1)  # images decoded and painted
    driver.save_screenshot(str(target))


def test_answer_streams_in_and_a_pdf_citation_shows_its_page_highlighted(browser, site):
    assert ask(browser, site, "Combien de jours de télétravail par semaine ?") == "done"
    answer = browser.find_element(By.ID, "answer")
    assert "2 jours" in answer.text
    citations = answer.find_elements(By.CSS_SELECTOR, "a.citation")
    # the page index (what the link opens), and the printed page where it differs
    assert citations and citations[0].text == "handbook/teletravail.pdf p. 2 (numérotée 1)"
    assert citations[0].get_attribute("href").endswith("/files/teletravail#page=2")
    sources = browser.find_elements(By.CSS_SELECTOR, "#sources li")
    assert sources and "score" in sources[0].text
    assert sandbox_is_safe(browser)
    citations[0].click()
    WebDriverWait(browser, 10).until(
        EC.visibility_of_element_located((By.ID, "passage-frame")))
    assert sandbox_is_safe(browser)
    frame = browser.find_element(By.ID, "passage-frame")
    assert "/passages/teletravail?page=2&chunk=" in frame.get_attribute("src")

    def page_image(d):
        image = WebDriverWait(d, 10).until(lambda d: d.execute_script(
            "var i = document.querySelector('.pdf-page img');"
            "return i && i.complete && i.naturalWidth > 0 ? i : null;"))
        boxes = d.find_elements(By.CSS_SELECTOR, ".quote-box")
        width = d.execute_script("return document.documentElement.clientWidth;")
        head = d.find_element(By.CSS_SELECTOR, ".file-head").text
        # no script runs in the frame: the page scrolled it to the highlight
        visible = boxes and WebDriverWait(d, 5).until(lambda d: on_screen(d, boxes[0]))
        return (image.size["width"], width, image.size["height"], len(boxes), visible, head,
                [b.rect for b in boxes], image.rect)

    img_w, frame_w, img_h, count, visible, head, rects, img = in_frame(browser, page_image)
    assert abs(img_w - frame_w) <= 2 and img_h > img_w  # fitted to the panel, portrait
    assert count >= 2 and visible  # the cited passage spans lines; the first is shown
    assert "p. 2 (numérotée 1)" in head and "Ouvrir le PDF" in head
    for r in rects:  # every box lies on the page image
        assert img["x"] <= r["x"] and r["x"] + r["width"] <= img["x"] + img["width"] + 1
        assert img["y"] <= r["y"] and r["y"] + r["height"] <= img["y"] + img["height"] + 1
    save_screenshot(browser, "answer-page.png")
    # a source opens its own passage (not another passage of a page with the same link)
    source = browser.find_elements(By.CSS_SELECTOR, "#sources a.source-link")[1]
    view = source.get_attribute("data-view")
    assert "/passages/teletravail?page=" in view and "&chunk=" in view
    source.click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(
        By.ID, "passage-frame").get_attribute("src").startswith(site + view))
    assert in_frame(browser, lambda d: WebDriverWait(d, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".quote-box")))


def test_an_html_citation_shows_the_text_with_the_passage_highlighted(browser, site):
    assert ask(browser, site, "How long must a password be?") == "done"
    link = browser.find_elements(By.CSS_SELECTOR, "#answer a.citation")[0]
    assert link.text.startswith("handbook/it-security.html:")
    link.click()
    assert sandbox_is_safe(browser)

    def text_view(d):
        hl = WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".hl"))
        visible = WebDriverWait(d, 5).until(lambda d: on_screen(d, hl[0]))
        body = d.find_element(By.TAG_NAME, "body").get_attribute("textContent")
        return ([h.text for h in hl], visible, body,
                len(d.find_elements(By.CSS_SELECTOR, "script")),
                [h.tag_name for h in d.find_elements(By.CSS_SELECTOR, "article h2, h3, h4")])

    highlighted, visible, body, scripts, headings = in_frame(browser, text_view)
    assert any("at least 14 characters" in h for h in highlighted) and visible
    assert "Two-factor authentication" in body  # the section around it, as text
    for source in ("<p>", "<h3>", "<main>", "class=", "Lucarne intranet", "Search the intranet"):
        assert source not in body  # no markup, no navigation or header of the page
    assert scripts == 0 and headings
    save_screenshot(browser, "html-citation.png")


def test_a_markdown_citation_shows_the_cited_lines_highlighted(browser, site):
    assert ask(browser, site, "Combien de jours de congés payés par an ?") == "done"
    link = browser.find_elements(By.CSS_SELECTOR, "#answer a.citation")[0]
    href = link.get_attribute("href")
    start, end = map(int, re.search(r"start=(\d+)&end=(\d+)", href).groups())
    link.click()
    frame = browser.find_element(By.ID, "passage-frame")
    assert "/passages/" in frame.get_attribute("src")
    rows = in_frame(browser, lambda d: [r.get_attribute("id") for r in WebDriverWait(d, 10)
                                        .until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                                                          "tr.hl"))])
    assert rows == [f"L{n}" for n in range(start, end + 1)]


def test_snippets_end_at_a_word_with_an_ellipsis(browser, site):
    question = "Combien de jours de congés payés par an ?"
    assert ask(browser, site, question) == "done"
    hits = httpx.post(site + "/search", json={"query": question, "k": 6},
                      headers={"X-API-Key": KEY}).json()["hits"]
    texts = [" ".join(h["text"].split()) for h in hits]
    snippets = [s.text for s in browser.find_elements(By.CSS_SELECTOR, "#sources .snippet")]
    cut = [s for s in snippets if s.endswith("\u2026")]
    assert cut  # some passages are longer than a snippet
    for s in cut:
        kept = s[:-1]
        whole = next(t for t in texts if t.startswith(kept))
        assert whole[len(kept)] in " ,;:.", (kept[-20:], whole[len(kept):len(kept) + 20])
    for s in snippets:
        if not s.endswith("\u2026"):
            assert s in texts


def test_refusal_is_shown_in_the_pages_language_and_methods_compare(browser, site):
    state = ask(browser, site, "Quelle est la couleur préférée du directeur financier ?")
    assert state == "refused"
    answer = browser.find_element(By.ID, "answer")
    assert "Pas de réponse" in answer.text and "refused" in answer.get_attribute("class")
    assert not answer.find_elements(By.CSS_SELECTOR, "a.citation")
    reason = browser.find_element(By.ID, "reason").text
    assert reason == "Motif : aucun passage trouvé dans les documents que vous pouvez lire"
    box = browser.find_element(By.ID, "question")
    box.clear()
    box.send_keys("Combien de jours de télétravail par semaine ?")
    browser.find_element(By.ID, "compare").click()
    WebDriverWait(browser, 10).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".cmp[data-method='bm25'] li")) == 5)
    note = browser.find_element(By.ID, "compare-note")
    assert "vecteurs" in note.text  # keyword-only index: dense and hybrid unavailable
    dense = browser.find_element(By.CSS_SELECTOR, ".cmp[data-method='dense']")
    assert not dense.find_elements(By.CSS_SELECTOR, "li")


def test_the_page_has_an_icon(browser, site):
    browser.get(site + "/?lang=fr")
    got = browser.execute_async_script(
        "var done = arguments[0]; var href = document.querySelector('link[rel=icon]').href;"
        "fetch(href).then(function (r) { return r.arrayBuffer().then(function (b) {"
        "done([r.status, r.headers.get('content-type'), b.byteLength, href]); }); });")
    assert got[0] == 200 and got[1] == "image/x-icon" and got[2] > 100
    assert got[3].endswith("/favicon.ico")


def test_feedback_buttons_under_an_answer_store_the_verdict(browser, site):
    import httpx

    question = "Combien de jours de télétravail par semaine ?"
    assert ask(browser, site, question) == "done"
    box = browser.find_element(By.ID, "feedback-box")
    assert box.is_displayed()
    buttons = {b.get_attribute("data-verdict"): b
               for b in box.find_elements(By.TAG_NAME, "button")}
    assert {v: b.text for v, b in buttons.items()} == {
        "right": "juste", "wrong": "fausse", "incomplete": "incomplète"}
    browser.find_element(By.ID, "feedback-comment").send_keys("Et le vendredi ?")
    buttons["incomplete"].click()
    status = browser.find_element(By.ID, "feedback-status")
    WebDriverWait(browser, 10).until(lambda d: status.get_attribute("data-state"))
    assert status.get_attribute("data-state") == "sent" and "Merci" in status.text
    assert all(not b.is_enabled() for b in buttons.values())  # one verdict per answer
    # read back through the API with the same key: what the page sent was stored
    items = httpx.get(site + "/feedback", headers={"X-API-Key": KEY}).json()["items"]
    (item,) = [i for i in items if i["comment"] == "Et le vendredi ?"]
    assert item["verdict"] == "incomplete" and item["channel"] == "web"
    assert item["question"] == question and "2 jours" in item["answer"]
    assert item["audience"] == "public" and not item["refused"]
    assert [(c["path"], c.get("page")) for c in item["citations"]] == [
        ("handbook/teletravail.pdf", 2)]
    # a new answer gets fresh buttons; the English page words them in English
    browser.get(site + "/?lang=en")
    assert not browser.find_element(By.ID, "feedback-box").is_displayed()  # no answer yet
    assert [b.get_attribute("textContent") for b in browser.find_elements(
        By.CSS_SELECTOR, "#feedback-box button")] == ["right", "wrong", "incomplete"]


def test_a_what_changed_answer_is_shown_as_a_diff(browser, site):
    assert ask(browser, site, "Qu'est-ce qui a changé dans la politique de retours ?") == "done"
    table = browser.find_element(By.ID, "changes")
    assert browser.find_element(By.ID, "changes-box").is_displayed()
    head = table.find_element(By.TAG_NAME, "tr").text
    assert "handbook/retours-v1.md" in head and "handbook/retours-v2.md" in head
    rows = table.find_elements(By.CSS_SELECTOR, "tr.change")
    answer = browser.find_element(By.ID, "answer").text
    assert rows and f"{len(rows)} passages modifiés" in answer
    delay = next(r for r in rows if "Délai de retour" in r.text)
    old, new = delay.find_elements(By.TAG_NAME, "td")
    assert "30 jours" in old.text and "45 jours" in new.text
    assert "30" in [d.text for d in old.find_elements(By.TAG_NAME, "del")]  # words marked
    assert "45" in [i.text for i in new.find_elements(By.TAG_NAME, "ins")]
    # each side links to its own version in the viewer
    link = new.find_element(By.CSS_SELECTOR, "a.citation")
    assert link.text.startswith("handbook/retours-v2.md:")
    link.click()
    frame = browser.find_element(By.ID, "passage-frame")
    assert "/passages/retours-v2" in frame.get_attribute("src")
    # the next, ordinary answer hides the diff
    assert ask(browser, site, "Combien de jours de congés payés par an ?") == "done"
    assert not browser.find_element(By.ID, "changes-box").is_displayed()
