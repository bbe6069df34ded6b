"""The app started from a terminal: it says it is running and where its log is, says when
no display will show it, and Ctrl-C stops it with one line, no traceback, nothing lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("options", "stopped"),
    [
        ([], "Stopped. Every move was saved as it was played."),
        # The demo plays in a temporary journal: nothing of it is saved, and it says so.
        pytest.param(["--demo"], "Stopped. The demo's game is not kept.", marks=pytest.mark.long),
    ],
)
def test_the_terminal_says_where_the_log_is_and_ctrl_c_stops_cleanly(
    tmp_path: Path, options: list[str], stopped: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("KIVY_NO_FILELOG", None)
    env.update(KIVY_HOME=str(tmp_path / "kivy"), SDL_VIDEODRIVER="offscreen", LANGUAGE="en")
    command = [
        *(sys.executable, "-m", "splendor_companion", "--data-dir", str(tmp_path / "data")),
        *options,
    ]
    app = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert app.stderr is not None
        # The folder named does not exist: the app makes it, as the commands that store do,
        # and says so (a typo shows as a line, not as an empty table).
        assert app.stderr.readline() == f"Made the data folder {tmp_path / 'data'}.\n"
        said = app.stderr.readline()
        assert "The touchscreen app is running (Ctrl-C stops it); its log:" in said
        assert str(tmp_path / "kivy") in said
        # Let it reach its main loop (its log says so), then Ctrl-C as in a terminal.
        logs = tmp_path / "kivy" / "logs"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = "".join(p.read_text() for p in logs.glob("*.txt")) if logs.exists() else ""
            if "Start application main loop" in text:
                break
            time.sleep(0.2)
        app.send_signal(signal.SIGINT)
        rest = app.stderr.read()
        assert app.wait(timeout=60) == 130
        assert stopped in rest and "Every move was saved" not in rest.replace(stopped, "")
        assert "Traceback" not in rest
        assert "Traceback" not in "".join(p.read_text() for p in logs.glob("*.txt"))
    finally:  # a failed look must not leave the app running after the test
        if app.poll() is None:
            app.kill()
            app.wait(timeout=30)


def test_with_no_display_the_terminal_says_nobody_will_see_the_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ui.launch import starting

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    assert "No desktop display was found" in starting(fullscreen=False)
    assert "No desktop display" not in starting(fullscreen=True)  # the Pi's own screen
    monkeypatch.setenv("DISPLAY", ":0")
    assert "No desktop display" not in starting(fullscreen=False)


def test_a_data_dir_that_is_a_file_stops_the_app_with_the_folder_to_give(tmp_path: Path) -> None:
    """--data-dir at the journal's own file: refused in one line naming the folder meant,
    before any window, and the file untouched."""
    data = tmp_path / "data"
    data.mkdir()
    journal = data / "games.sqlite3"
    journal.write_bytes(b"a family's games")
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "LANGUAGE": "en"}
    done = subprocess.run(
        [sys.executable, "-m", "splendor_companion", "--data-dir", str(journal)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"--data-dir {journal} is a file, not a folder: give the folder that holds it: "
        f"--data-dir {data}\n"
    )
    assert journal.read_bytes() == b"a family's games"
    assert not (tmp_path / "kivy").exists()  # stopped before Kivy was started
