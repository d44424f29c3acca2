"""Write the README's table of settings from the fields of `preuve.settings.Settings`
(`make settings-table`); with --check, only say whether the README is up to date (exit 1
when it is not); `--readme FILE` for another file than the repository's README.md. The table
sits between the two markers below."""

from __future__ import annotations

import sys
from pathlib import Path

from preuve.settings import readme_table

README = Path(__file__).resolve().parent.parent / "README.md"
START = "<!-- settings table: written by `make settings-table` from preuve/settings.py -->\n"
END = "<!-- end of the settings table -->\n"


def table_in(text: str) -> str:
    """The table between the markers of `text` (ValueError when they are missing)."""
    _, start, rest = text.partition(START)
    body, end, _ = rest.partition(END)
    if not start or not end:
        raise ValueError(f"no settings table: the markers {START.strip()} ... "
                         f"{END.strip()} are missing")
    return body


def main(argv: list[str]) -> int:
    readme = Path(argv[argv.index("--readme") + 1]) if "--readme" in argv else README
    text = readme.read_text("utf-8")
    current, wanted = table_in(text), readme_table()
    if "--check" in argv:
        if current != wanted:
            print(f"{readme}: the settings table differs from preuve/settings.py: run "
                  "`make settings-table`", file=sys.stderr)
            return 1
        return 0
    if current != wanted:
        readme.write_text(text.replace(START + current + END, START + wanted + END), "utf-8")
        print(f"{readme}: settings table written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
