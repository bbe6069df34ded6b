"""A real PostgreSQL for the club's tests (the fixtures ``postgres`` and ``club`` of
tests/conftest.py, for tests/club/ and the app's Club view in tests/gui/): one cluster a
test session (a worker's, under xdist), made by initdb in a temporary folder as a non-root
user, listening on a socket in that folder and on 127.0.0.1 only (companion/club/local.py,
which the benchmark uses too); stopped and removed at the end. Each test gets a club
database of its own, copied from a template that holds the schema. Skipped only where no
PostgreSQL server is installed (setup.sh --dev installs Debian's)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.club.local import LocalServer, server_binaries

TEMPLATE = "club_template"
KIOSKS = {"table1": "pw-one", "table2": "pw-two"}
_numbers = itertools.count(1)


def postgres_server() -> Iterator[LocalServer]:
    if server_binaries() is None:
        pytest.skip("no PostgreSQL server is installed (initdb, pg_ctl): ./setup.sh --dev")
    pytest.importorskip("psycopg", reason="psycopg is not installed: ./setup.sh --dev")
    server = LocalServer().start()
    try:
        server.make_club(TEMPLATE)
        for role, password in KIOSKS.items():
            server.add_kiosk(role, password)
        yield server
    finally:
        server.stop()


class ClubDb:
    """A club's database of the session's server, and how a kiosk reaches it."""

    def __init__(self, server: LocalServer, name: str) -> None:
        self.server = server
        self.name = name

    def url(self, kiosk: str = "table1") -> str:
        return self.server.kiosk_url(kiosk, KIOSKS[kiosk], self.name)

    def owner(self) -> str:
        return self.server.owner_url(self.name)


def club_db(postgres: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ClubDb:
    """A fresh club (its schema, no games), and libpq's files in the test's folder: the
    suite never reads nor writes a person's ~/.pgpass or service file."""
    name = f"club_{os.getpid()}_{next(_numbers)}"
    postgres.owner_sql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}", database="postgres")
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "pgpass"))
    monkeypatch.setenv("PGSERVICEFILE", str(tmp_path / "pg_service.conf"))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    return ClubDb(postgres, name)
