"""Shared fixtures: every test starts in English whatever the machine's locale."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import i18n


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
