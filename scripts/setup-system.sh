#!/usr/bin/env bash
# Debian packages preuve and its test suite use beyond Python: Chromium and its driver for
# the browser test (the Debian builds: nothing is downloaded by a test tool), and FreeDict's
# French-English and English-French dictionaries (GPL-2+, read at run time from
# /usr/share/dictd by preuve/retrieve/bilingual.py for keyword search across languages;
# preuve works without them), and the wfrench/wamerican-large word lists (read from /usr/share/dict
# to tell a name from a word in a question; skipped without them). Idempotent; needs root (as on this project's machines and
# CI); without root it says what to run.
# `setup-system.sh runtime`: only what preuve itself reads (the dictionaries), for `make demo`.
# It says what it will install before it does; PREUVE_SKIP_SYSTEM=1 skips it (preuve then
# runs without the dictionaries and word lists, and the browser test is skipped).
set -euo pipefail
if [ -n "${PREUVE_SKIP_SYSTEM:-}" ] && [ "${PREUVE_SKIP_SYSTEM}" != 0 ]; then
    echo "setup-system.sh: skipped (PREUVE_SKIP_SYSTEM is set): no Debian package installed" >&2
    exit 0
fi
need=()
if [ "${1:-}" != runtime ]; then
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
    # git: the git-aware ingest tests make real repositories (preuve/ingest/repo.py)
    command -v git >/dev/null 2>&1 || need+=(git)
fi
[ -f /usr/share/dictd/freedict-fra-eng.index ] || need+=(dict-freedict-fra-eng)
[ -f /usr/share/dictd/freedict-eng-fra.index ] || need+=(dict-freedict-eng-fra)
# word lists, to tell a word from a name in a question (preuve/answer/answerability.py)
[ -f /usr/share/dict/french ] || need+=(wfrench)
[ -f /usr/share/dict/american-english-large ] || need+=(wamerican-large)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${need[*]} (run: sudo apt-get install -y ${need[*]};" \
        "or PREUVE_SKIP_SYSTEM=1 to silence this)" >&2
    exit 0
fi
echo "setup-system.sh: installing the Debian packages ${need[*]} (apt-get update, then" \
    "apt-get install; the dictionaries and word lists let a French question meet English" \
    "documents, Chromium runs the browser test). To skip: PREUVE_SKIP_SYSTEM=1 make ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
