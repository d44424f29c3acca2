"""Save docs/eval-report-faq.png: the evaluation report of the public Python FAQ set
(`preuve eval ../shared/eval-data/python311-faq-en --method all --report ...`), opened in
headless Chromium (Debian's chromium: scripts/setup-system.sh). The eval index is made in
a temporary folder and deleted.

    python docs/report_screenshot.py [COLLECTION]
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "eval-report-faq.png"
FAQ = ROOT.parent / "shared" / "eval-data" / "python311-faq-en"

if __name__ == "__main__":
    collection = sys.argv[1] if len(sys.argv) > 1 else str(FAQ)
    with tempfile.TemporaryDirectory(prefix="preuve-report-") as tmp:
        page = Path(tmp) / "report.html"
        subprocess.run([sys.executable, "-m", "preuve", "eval", collection, "--method", "all",
                        "--index", str(Path(tmp) / "main.sqlite"), "--report", str(page)],
                       check=True, cwd=ROOT)
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--window-size=1200,2600",
                        f"--screenshot={TARGET}", page.as_uri()], check=True,
                       stderr=subprocess.DEVNULL)
    print(f"saved {TARGET}")
