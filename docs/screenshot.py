"""Save docs/answer-page.png: the web page answering a question on the sample corpus, the
cited PDF page open in the side panel. Runs the browser test with PREUVE_SCREENSHOT set
(needs Debian's chromium and chromium-driver).

    python docs/screenshot.py
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "answer-page.png"

if __name__ == "__main__":
    env = {**os.environ, "PREUVE_SCREENSHOT": str(TARGET)}
    code = subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                            str(ROOT / "tests" / "test_browser.py"), "-k", "pdf_citation"],
                           cwd=ROOT, env=env)
    if code == 0 and TARGET.exists():
        print(f"saved {TARGET}")
    sys.exit(code)
