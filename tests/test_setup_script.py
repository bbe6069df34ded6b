"""``./setup.sh``, the README's first command: it says what it takes and refuses what it
does not know before it installs anything."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "setup.sh"), *args], capture_output=True, text=True, timeout=30
    )


def test_help_says_what_it_takes_and_installs_nothing() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "usage: ./setup.sh [--dev]" in result.stdout
    assert "installing" not in result.stdout + result.stderr


def test_an_unknown_option_is_refused_before_anything_is_installed() -> None:
    result = run("--devv")
    assert result.returncode == 2
    assert "unknown option --devv" in result.stderr
    assert "installing" not in result.stdout + result.stderr
    assert run("--dev", "--extra").returncode == 2
