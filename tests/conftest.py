"""Shared fixtures: every test starts in English whatever the machine's locale.

Hypothesis: a test that sets no ``max_examples`` of its own runs Hypothesis' default
number of examples (quick, for CI); ``HYPOTHESIS_PROFILE=long`` runs 20 times as many,
for a night on a spare machine."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from companion import i18n

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
