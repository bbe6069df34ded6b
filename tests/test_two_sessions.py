"""Two companions on one data folder (a second app started by mistake, a command run while
the kiosk plays): the second is refused and the first's game goes on intact.

The first is a real process holding the journal the way the app does (a :class:`Store`
opened at start and kept, a :class:`Session` playing); the second tries to open it as the
app and the command line do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.simulate import simulate
from companion.errors import ErrorCode
from companion.journal.session import Session
from companion.journal.store import Store, StoreError
from companion.records.record import Record, write

ROOT = Path(__file__).resolve().parent.parent
GAME = simulate(players=3, seed=17)

FIRST = textwrap.dedent(
    """
    import sys
    from companion.journal.session import Session
    from companion.engine.simulate import simulate
    from companion.journal.store import Store
    game = simulate(players=3, seed=17)
    half = len(game.moves) // 2
    with Store(sys.argv[1]) as store:
        session = Session.start(store, game.setup)
        for move in game.moves[:half]:
            session.play(move)
        print("playing", session.game_id, flush=True)
        sys.stdin.readline()  # the second companion tries its luck meanwhile
        for move in game.moves[half:]:
            session.play(move)
    print("done", flush=True)
    """
)


def test_a_second_companion_is_refused_and_the_first_game_is_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    db = data / "games.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen(
        [sys.executable, "-c", FIRST, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert first.stdout is not None and first.stdin is not None
        word, game_id = first.stdout.readline().split()
        assert word == "playing"

        # The app's way: open the journal for the table, and start a game in it.
        with pytest.raises(StoreError) as refused:
            Session.start(Store(db), GAME.setup)
        assert refused.value.code is ErrorCode.STORE_BUSY
        assert f"process {first.pid}" in refused.value.message

        # The command line's way: a write is refused, a read sees the game in progress.
        monkeypatch.setenv("SPLENDOR_DATA_DIR", str(data))
        record = tmp_path / "other.json"
        record.write_text(write(Record.of(simulate(players=2, seed=2))), encoding="utf-8")
        assert main(["import", str(record)]) == 2
        assert "is in use by another Splendor Companion" in capsys.readouterr().err
        assert main(["games"]) == 0
        _header, row = capsys.readouterr().out.splitlines()
        assert row.split()[-2:] == ["playing", str(len(GAME.moves) // 2)]

        first.stdin.write("go on\n")
        first.stdin.flush()
        assert first.stdout.readline().strip() == "done"
    finally:
        if first.stdin is not None:
            first.stdin.close()
        first.wait(timeout=120)
    assert first.returncode == 0

    with Store(db) as store:  # the first is gone: the journal is free again
        assert [g.id for g in store.games()] == [int(game_id)]
        assert store.moves(int(game_id)) == list(GAME.moves)
        assert store.info(int(game_id)).state == "over"
        assert store.integrity() == "ok"
