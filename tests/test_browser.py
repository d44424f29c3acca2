"""The web page in headless Chromium (Debian's chromium + chromedriver, no download): ask a
question on the sample corpus, watch the answer stream in, click a citation and check the
passage viewer shows the right PDF page or highlighted lines.

`PREUVE_SCREENSHOT=docs/answer-page.png` also saves a screenshot of the answer page
(`python docs/screenshot.py` does that)."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

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


def test_answer_streams_in_and_a_pdf_citation_opens_at_its_page(browser, site):
    assert ask(browser, site, "Combien de jours de télétravail par semaine ?") == "done"
    answer = browser.find_element(By.ID, "answer")
    assert "2 jours" in answer.text
    citations = answer.find_elements(By.CSS_SELECTOR, "a.citation")
    assert citations and citations[0].text == "handbook/teletravail.pdf p. 2"
    sources = browser.find_elements(By.CSS_SELECTOR, "#sources li")
    assert sources and "score" in sources[0].text
    citations[0].click()
    WebDriverWait(browser, 10).until(
        EC.visibility_of_element_located((By.ID, "passage-frame")))
    frame = browser.find_element(By.ID, "passage-frame")
    assert frame.get_attribute("src").endswith("/files/teletravail#page=2")
    shot = os.environ.get("PREUVE_SCREENSHOT")
    if shot:
        Path(shot).parent.mkdir(parents=True, exist_ok=True)
        time.sleep(3)  # let the PDF viewer render the page
        browser.save_screenshot(shot)


def test_a_markdown_citation_shows_the_cited_lines_highlighted(browser, site):
    assert ask(browser, site, "Combien de jours de congés payés par an ?") == "done"
    link = browser.find_elements(By.CSS_SELECTOR, "#answer a.citation")[0]
    href = link.get_attribute("href")
    start, end = map(int, re.search(r"start=(\d+)&end=(\d+)", href).groups())
    link.click()
    frame = browser.find_element(By.ID, "passage-frame")
    assert "/passages/" in frame.get_attribute("src")
    browser.switch_to.frame(frame)
    try:
        rows = WebDriverWait(browser, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "tr.hl"))
        assert [r.get_attribute("id") for r in rows] == [
            f"L{n}" for n in range(start, end + 1)]
    finally:
        browser.switch_to.default_content()


def test_refusal_is_shown_as_such_and_methods_compare(browser, site):
    state = ask(browser, site, "Quelle est la couleur préférée du directeur financier ?")
    assert state == "refused"
    answer = browser.find_element(By.ID, "answer")
    assert "Pas de réponse" in answer.text and "refused" in answer.get_attribute("class")
    assert not answer.find_elements(By.CSS_SELECTOR, "a.citation")
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
    # each side links to its own version in the viewer
    link = new.find_element(By.CSS_SELECTOR, "a.citation")
    assert link.text.startswith("handbook/retours-v2.md:")
    link.click()
    frame = browser.find_element(By.ID, "passage-frame")
    assert "/passages/retours-v2" in frame.get_attribute("src")
    # the next, ordinary answer hides the diff
    assert ask(browser, site, "Combien de jours de congés payés par an ?") == "done"
    assert not browser.find_element(By.ID, "changes-box").is_displayed()
