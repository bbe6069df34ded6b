"""A throwaway PostgreSQL cluster in a folder of its own, for the club's tests and benchmark.

Debian's server binaries (``initdb``, ``pg_ctl``; ``setup.sh --dev`` installs the
``postgresql`` package) run a cluster in a temporary folder, listening on a Unix socket in
that folder and on 127.0.0.1 at a free port, never on another address. ``initdb`` refuses
to run as root: as root the cluster is the ``postgres`` user's (else ``nobody``'s), and its
folder theirs. The cluster's owner connects through the socket without a password; the
kiosks' roles through 127.0.0.1 with a password (scram-sha-256), as a club's would.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

OWNER = "club_owner"
DATABASE = "splendor_club"


def server_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the ``PATH``, else Debian's newest
    ``/usr/lib/postgresql/N/bin``; ``None`` when no PostgreSQL server is installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent  # a link to Debian's folder: its psql is there
    folders = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(folders[-1]).parent if folders else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LocalServer:
    """A cluster made by :meth:`start` and removed by :meth:`stop`. ``durable``: PostgreSQL's
    default (each commit flushed to the disk), as a club's server; without it (the tests)
    the files are not flushed to the disk, which a server stopped (even ``immediate``)
    survives, the system keeping what was written. A commit is always written before it
    returns (``synchronous_commit`` is left on): the kiosk deletes a game from its outbox
    only after the club's commit, and that must hold when the server stops."""

    def __init__(self, durable: bool = False) -> None:
        binaries = server_binaries()
        if binaries is None:
            raise FileNotFoundError("no PostgreSQL server (initdb, pg_ctl) is installed")
        self.bin = binaries
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="splendor-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = "postgres"
            try:
                record = pwd.getpwnam(user)
            except KeyError:
                user, record = "nobody", pwd.getpwnam("nobody")
            os.chown(self.folder, record.pw_uid, record.pw_gid)
            self._as = ["runuser", "-u", user, "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, text=True, timeout=120)

    def start(self) -> LocalServer:
        """Make the cluster (once) and start it; the club's database exists, empty."""
        if not self.data.exists():
            self._run(
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                OWNER,
                "-E",
                "UTF8",
                "--no-locale",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "--no-sync",
            )
            self.port = _free_port()
            self.restart()
            self.owner_sql(f"CREATE DATABASE {DATABASE}", database="postgres")
        else:
            self.restart()
        return self

    def restart(self) -> None:
        """Start the server (after :meth:`halt`), listening where it did."""
        options = [
            f"-p {self.port}",
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.folder}",
            "-c max_connections=200",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c full_page_writes=off"]
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "server.log"),
            "-o",
            " ".join(options),
            "-w",
            "-t",
            "60",
            "start",
        )

    def halt(self, mode: str = "immediate") -> None:
        """Stop the server (``immediate``: as if it crashed), its files kept."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.halt("fast")
        shutil.rmtree(self.folder, ignore_errors=True)

    def owner_url(self, database: str = DATABASE) -> str:
        """The cluster owner's connection, through the socket (no password)."""
        return f"host={self.folder} port={self.port} user={OWNER} dbname={database}"

    def kiosk_url(self, role: str, password: str, database: str = DATABASE) -> str:
        """A kiosk's libpq URL, password included (``club join`` moves it to ~/.pgpass)."""
        return f"postgresql://{role}:{password}@127.0.0.1:{self.port}/{database}"

    def owner_sql(self, sql: str, database: str = DATABASE) -> None:
        """Run SQL as the owner with ``psql`` (a script of several statements too)."""
        done = subprocess.run(
            [self._psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", self.owner_url(database)],
            input=sql,
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(f"psql: {done.stderr.strip()}")

    def _psql(self) -> str:
        beside = self.bin / "psql"
        return str(beside) if beside.exists() else shutil.which("psql") or "psql"

    def make_club(self, database: str = DATABASE) -> None:
        """The club's schema in ``database`` (made when absent), as docs/club.md says."""
        if database != DATABASE:
            self.owner_sql(f"CREATE DATABASE {database}", database="postgres")
        schema = Path(__file__).with_name("schema.sql").read_text(encoding="utf-8")
        self.owner_sql(schema, database)

    def add_kiosk(self, role: str, password: str) -> None:
        """A kiosk's login role in the kiosks' group (roles are the cluster's)."""
        self.owner_sql(
            f"CREATE ROLE {role} LOGIN PASSWORD '{password}' IN ROLE splendor_kiosk",
            database="postgres",
        )

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
