"""The app speaks the environment's language until its settings screen sets one, as the
command line does: a newcomer with a French locale never meets an English app beside a
French command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def default_language(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LANG")}
    clean.pop("SPLENDOR_LANG", None)
    clean.pop("LC_MESSAGES", None)
    code = "from ui.settings import DEFAULTS; print(DEFAULTS['language'])"
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "KIVY_NO_ARGS": "1", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.strip()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANGUAGE": "sv:en", "LANG": "C.UTF-8"}, "sv"),
        ({"SPLENDOR_LANG": "it", "LANG": "fr_FR.UTF-8"}, "it"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language without a catalog: English
    ],
)
def test_the_app_starts_in_the_environment_language(env: dict[str, str], expected: str) -> None:
    assert default_language(**env) == expected
