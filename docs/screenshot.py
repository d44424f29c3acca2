"""Save the web page's screenshots into docs/: answer-page.png (a French question answered
on the sample corpus, the cited PDF page open in the side panel with the passage
highlighted) and html-citation.png (an HTML citation shown as text, the passage
highlighted). Runs the browser tests with PREUVE_SCREENSHOT set (needs Debian's chromium
and chromium-driver: scripts/setup-system.sh).

    python docs/screenshot.py
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = [ROOT / "docs" / "answer-page.png", ROOT / "docs" / "html-citation.png"]

if __name__ == "__main__":
    env = {**os.environ, "PREUVE_SCREENSHOT": str(ROOT / "docs")}
    code = subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                            str(ROOT / "tests" / "test_browser.py"), "-k",
                            "pdf_citation or html_citation"], cwd=ROOT, env=env)
    for target in TARGETS:
        if code == 0 and target.exists():
            print(f"saved {target}")
    sys.exit(code)
