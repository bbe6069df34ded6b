"""Shared fixtures: every test starts in English whatever the machine's locale.

Hypothesis: a test that sets no ``max_examples`` of its own runs Hypothesis' default
number of examples (quick, for CI); ``HYPOTHESIS_PROFILE=long`` runs 20 times as many,
for a night on a spare machine."""

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubdb import ClubDb, club_db, postgres_server
from devices import PN532Module, Pty
from hypothesis import settings

from companion import i18n
from companion.club.local import LocalServer
from hardware.rfid import RfidReader

settings.register_profile("long", max_examples=2000, deadline=None)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder of the command line, through the environment as on a kiosk."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SPLENDOR_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def pty() -> Iterator[Pty]:
    """A pseudo-terminal for a serial reader (:class:`devices.Pty`), closed after the test."""
    port = Pty()
    yield port
    port.unplug()


@pytest.fixture
def pn532() -> Iterator[tuple[Pty, PN532Module]]:
    """A simulated PN532 module at the far end of a new pseudo-terminal, answering as it
    hears; stopped and its port closed after the test."""
    port = Pty()
    module = PN532Module(port)
    yield port, module
    module.stop()
    port.unplug()


@pytest.fixture
def readers() -> Iterator[list[RfidReader]]:
    """Readers started by a test, stopped after it; no reader thread may outlive it."""
    started: list[RfidReader] = []
    yield started
    for reader in started:
        reader.stop()
    left = [t.name for t in threading.enumerate() if t.name.startswith("rfid-")]
    assert not left, f"threads left running: {left}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalServer]:
    """The session's PostgreSQL (a worker's, under xdist): started when a test first needs
    it, stopped and removed at the end (tests/clubdb.py)."""
    yield from postgres_server()


@pytest.fixture
def club(postgres: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ClubDb:
    """A fresh club of the session's server, libpq's files in the test's folder."""
    return club_db(postgres, tmp_path, monkeypatch)
