"""Ctrl-C stops every long command cleanly: one line in the reader's language, exit status
130, no traceback, no file half written (companion.interrupt). Each command is started as a
terminal starts it (its own process group, which a terminal's Ctrl-C reaches whole, pool
workers included), interrupted once it is at work, then judged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion import i18n
from companion.engine.simulate import simulate
from companion.records.record import Record, write

# CPU seconds a command has used when it is surely at work: starting the program (Python
# and its imports) takes about a third of a second on the project's machine.
AT_WORK = 0.7


def cpu_seconds(group: int) -> float:
    """The user and system time the processes of ``group`` have used so far
    (``/proc/PID/stat``): a command may work in a child of its own (bench's cold runs)."""
    used = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[2]) == group:
            used += int(fields[11]) + int(fields[12])
    return used / os.sysconf("SC_CLK_TCK")


def start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "SPLENDOR_LANG": "fr", "SPLENDOR_DATA_DIR": str(cwd / "data")}
    return subprocess.Popen(
        [sys.executable, "-m", "splendor_companion", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
    )


def test_ctrl_c_stops_each_long_command_with_one_line_and_nothing_half_written(
    tmp_path: Path,
) -> None:
    game = simulate(players=4, seed=3)
    (tmp_path / "game.json").write_text(write(Record.of(game)), encoding="utf-8")
    commands = {
        "review": ["review", "game.json"],
        "simulate": ["simulate", "--seats", "hard,hard", "--seed", "1", "--out", "out/s.json"],
        "bench": ["bench"],
    }
    (tmp_path / "out").mkdir()
    running = {name: start(args, tmp_path) for name, args in commands.items()}
    deadline = time.monotonic() + 60
    for name, child in running.items():
        while child.poll() is None and cpu_seconds(child.pid) < AT_WORK:
            assert time.monotonic() < deadline, f"{name} never got to work"
            time.sleep(0.05)
        assert child.poll() is None, f"{name} ended before it could be interrupted"
        os.killpg(child.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
    i18n.set_language("fr")
    said = i18n.translate("Stopped (Ctrl-C): nothing was left half written.")
    assert said != "Stopped (Ctrl-C): nothing was left half written."
    for name, child in running.items():
        _out, err = child.communicate(timeout=60)
        assert child.returncode == 130, (name, err)
        assert "Traceback" not in err, (name, err)
        assert err.splitlines() == [said], (name, err)
    # No record half written, and no temporary file left beside where it was going.
    assert list((tmp_path / "out").iterdir()) == []
