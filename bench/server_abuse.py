"""What an unauthenticated client costs a real `preuve serve` (issue 10, item 5).

Starts `python -m preuve serve` over a keyword-only index of `examples/` on 127.0.0.1, then:
a 97 MB JSON body without a key (server RSS before, peak RSS after, status, body bytes the
client got to send), a 200 MB chunked upload without a key (bytes that reached the server's
temporary folder), and 600 requests with wrong keys as fast as one client sends them
(statuses). Prints a Markdown table.

    .venv/bin/python bench/server_abuse.py [--pythonpath DIR]

`--pythonpath` runs the server from another checkout (e.g. the code before the guard).
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
MB = 1024 * 1024


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / MB


def send(port: int, head: str, total: int, chunked: bool,
         prefix: bytes = b"") -> tuple[str, int]:
    """Send `head`, then `prefix` and filler up to `total` body bytes until the server
    answers: (status, body bytes sent)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(head.encode())
    piece, sent = b"x" * (256 * 1024), 0
    try:
        if prefix:
            sock.sendall(f"{len(prefix):x}\r\n".encode() + prefix + b"\r\n" if chunked
                         else prefix)
            sent += len(prefix)
        while sent < total and not select.select([sock], [], [], 0)[0]:
            data = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
            sock.sendall(data)
            sent += len(piece)
        if chunked and sent >= total:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    reply = sock.recv(200).decode(errors="replace")
    sock.close()
    return (reply.split(" ")[1] if " " in reply else "closed"), sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pythonpath", default=str(REPO))
    args = parser.parse_args()
    from preuve import Index
    from preuve.server.runner import free_port

    work = Path(tempfile.mkdtemp(prefix="preuve-abuse-"))
    index = work / "index.sqlite"
    with Index(index, embedder="none") as ix:
        ix.ingest([REPO / "examples"])
    tmp = work / "tmp"
    tmp.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env.update(PYTHONPATH=args.pythonpath, TMPDIR=str(tmp),
               PREUVE_API_KEYS="k-public:public,k-admin:admin")
    proc = subprocess.Popen([sys.executable, "-m", "preuve", "serve", "--index", str(index),
                             "--port", str(port)], env=env, cwd=work,
                            stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                httpx.get(url + "/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        httpx.post(url + "/search", json={"query": "congés"}, headers={"X-API-Key": "k-public"})
        before = rss_mb(proc.pid)
        status, sent = send(port, f"POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                  f"application/json\r\nContent-Length: {97 * MB}\r\n\r\n",
                            97 * MB, chunked=False)
        time.sleep(0.5)
        peak = rss_mb(proc.pid, "VmHWM")
        up_status, up_sent = send(port, "POST /documents HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                        "multipart/form-data; boundary=b\r\nTransfer-Encoding: "
                                        "chunked\r\n\r\n", 200 * MB, chunked=True,
                                  prefix=b'--b\r\nContent-Disposition: form-data; name="file"; '
                                         b'filename="big.md"\r\n\r\n')
        time.sleep(0.5)
        on_disk = folder_mb(tmp)
        started = time.monotonic()
        with httpx.Client(base_url=url) as client:
            codes = Counter(client.get("/documents", headers={"X-API-Key": f"bad{i}"}).status_code
                            for i in range(600))
        elapsed = time.monotonic() - started
    finally:
        proc.kill()
        proc.wait()
    print(f"| server code | {args.pythonpath} |\n|---|---|")
    print(f"| 97 MB JSON, no key | {status} after {sent / MB:.1f} MB sent; RSS {before:.0f} MB "
          f"before, peak {peak:.0f} MB |")
    print(f"| 200 MB chunked upload, no key | {up_status} after {up_sent / MB:.1f} MB sent; "
          f"{on_disk:.1f} MB in the server's temp folder |")
    print(f"| 600 wrong keys in {elapsed:.1f} s | " + ", ".join(
        f"{n} x {code}" for code, n in sorted(codes.items())) + " |")


if __name__ == "__main__":
    main()
