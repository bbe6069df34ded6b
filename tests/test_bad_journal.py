"""The games journal is sacred: a damaged row, a read-only folder whose journal
has a WAL file and no ``-shm``, a full disk, a deleted lock file, a damaged file met by a
reader. Real SQLite files, real mounts (skipped, saying why, where they cannot be had)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import tool

from companion.cli import main
from companion.engine.game import Game
from companion.engine.simulate import Dealer, choose, random_setup, simulate
from companion.errors import ErrorCode
from companion.journal.session import Session
from companion.journal.store import GameState, Store, StoreError
from companion.records.record import Record

SEEDS = (1, 2, 3)


def finished_games(path: Path, seeds: tuple[int, ...] = SEEDS) -> list[int]:
    with Store(path) as store:
        return [store.import_record(Record.of(g), GameState.of(g)) for g in map(game, seeds)]


def game(seed: int) -> Game:
    return simulate(players=2, seed=seed)


def rows(path: Path) -> list[tuple[object, ...]]:
    """Every row of every table, read by SQLite itself."""
    with sqlite3.connect(path) as db:
        return [
            row
            for table in ("games", "moves", "events")
            for row in db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")
        ]


def mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0


def umount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


# ------------------------------------------------------------------ a damaged row


@pytest.fixture
def damaged(data: Path) -> tuple[Path, list[int]]:
    """Three finished games; the second's players and the third's setup no longer JSON,
    while SQLite's own check says ok."""
    path = data / "games.sqlite3"
    ids = finished_games(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET players = '[\"Ada\", ' WHERE id = ?", (ids[1],))
        db.execute("UPDATE games SET record = '{\"setup\": ' WHERE id = ?", (ids[2],))
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return path, ids


def test_games_lists_a_damaged_game_as_such_with_the_others(
    damaged: tuple[Path, list[int]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = damaged
    before = rows(path)
    assert main(["games"]) == 2
    out, err = capsys.readouterr()
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(lines) == {str(i) for i in ids}
    assert "damaged" in lines[str(ids[1])] and "damaged" in lines[str(ids[2])]
    assert "over" in lines[str(ids[0])]
    assert f"game {ids[1]} in the journal cannot be read: its list of players" in err
    assert f"game {ids[2]} in the journal cannot be read: its setup is damaged" in err
    assert "Traceback" not in err
    assert rows(path) == before  # kept, never deleted nor rewritten


def test_stats_count_the_others_and_say_which_game_was_left_out(
    damaged: tuple[Path, list[int]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats"]) == 2
    out, err = capsys.readouterr()
    assert "1 game" in out  # the readable one is counted
    assert err.count("It is left out, and kept in the journal as it is.") == 2
    assert "Traceback" not in err


def test_export_all_exports_the_others_and_names_the_damaged_ones(
    damaged: tuple[Path, list[int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = damaged
    before = rows(path)
    assert main(["export", "--all", "--to", str(tmp_path / "usb")]) == 2
    out, err = capsys.readouterr()
    assert "1 finished game exported" in out
    assert {p.name.rsplit("_g", 1)[1].split(".")[0] for p in (tmp_path / "usb").iterdir()} == {
        str(ids[0])
    }
    assert f"game {ids[1]}" in err and f"game {ids[2]}" in err
    assert main(["export", str(ids[2])]) == 2  # alone: said, not a traceback
    assert "cannot be read" in capsys.readouterr().err
    assert rows(path) == before


def test_a_damaged_unfinished_game_is_not_offered_for_resume(db_path: Path) -> None:
    with Store(db_path) as store:
        first = Session.start(store, random_setup(random.Random(1), ["A", "B"]))
        first.play("take WUG")
        second = Session.start(store, random_setup(random.Random(2), ["C", "D"]))
        second.play("take WUG")
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE moves SET move = 'take' WHERE game_id = ?", (second.game_id,))
    with Store(db_path) as store:
        # The last touched is damaged: the one before it is offered; both are listed.
        info = store.latest_unfinished()
        assert info is not None and info.id == first.game_id
        assert {g.id for g in store.games()} == {first.game_id, second.game_id}
        with pytest.raises(StoreError) as refused:
            store.record(second.game_id)
        assert refused.value.code is ErrorCode.UNREADABLE_GAME


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"


def test_a_damaged_log_entry_is_said_not_a_traceback(db_path: Path) -> None:
    ids = finished_games(db_path, (4,))
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE events SET detail = '[1, 2]' WHERE game_id = ?", (ids[0],))
        db.execute("UPDATE events SET detail = '{' WHERE game_id = ? AND kind = 'import'", ids)
    with Store(db_path, reader=True) as store:
        assert store.games()[0].problem is not None
        with pytest.raises(StoreError, match="an entry of its log is damaged"):
            store.record(ids[0], with_journal=True)


# ------------------------------------------------------------------ a read-only folder


def journal_with_a_wal(folder: Path) -> int:
    """A journal whose last games are committed in its WAL file, with no ``-shm``, as the
    fault-injection run makes it (``tools/faults.py``); how many games it holds."""
    games = int(tool("faults").journal_with_a_wal(folder))
    assert (folder / "games.sqlite3-wal").stat().st_size > 0
    assert not (folder / "games.sqlite3-shm").exists()
    return games


@pytest.fixture
def read_only_wal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    if os.geteuid() != 0:
        pytest.skip("a read-only mount needs root")
    folder = tmp_path / "card"
    journal_with_a_wal(folder)
    if not mount("--bind", str(folder), str(folder)):
        pytest.skip("no right to mount here")
    try:
        assert mount("-o", "remount,ro,bind", str(folder))
        monkeypatch.setenv("SPLENDOR_DATA_DIR", str(folder))
        yield folder
    finally:
        umount(folder)


def test_a_read_only_folder_shows_the_games_still_in_the_wal(
    read_only_wal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in read_only_wal.iterdir()}
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 + 3
    assert main(["export", "--all", "--to", str(tmp_path / "usb")]) == 0
    assert "3 finished games exported" in capsys.readouterr().out
    assert {p.name: p.read_bytes() for p in read_only_wal.iterdir()} == before


def test_a_wal_that_cannot_be_read_is_said_never_fewer_games(
    read_only_wal: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    nowhere = tmp_path / "tmp"
    nowhere.write_text("")  # no private copy can be made either
    monkeypatch.setattr(tempfile, "tempdir", str(nowhere))
    assert main(["games"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "games.sqlite3-wal" in err and "--data-dir" in err


# ------------------------------------------------------------------ a full disk


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A small real file system of its own (tmpfs), to fill up."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or not mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)):
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield folder
    finally:
        umount(folder)


def fill(disk: Path, leave: int = 0) -> Path:
    """Fill ``disk`` up as the fault-injection run does (``tools/faults.py``), then give
    back ``leave`` bytes; the file that fills it."""
    tool("faults").fill(disk, leave)
    return disk / "filler"


def test_a_new_journal_on_a_full_disk_says_the_disk_is_full(disk: Path) -> None:
    refused = 0
    for leave in range(0, 96 * 1024, 4096):
        filler = fill(disk, leave)
        try:
            Store(disk / "data" / "games.sqlite3").close()
        except StoreError as err:
            refused += 1
            assert err.code is ErrorCode.DISK_FULL, (leave, err.message)
            assert "the disk is full" in err.message and "rollback" not in err.message
        filler.unlink()
        shutil.rmtree(disk / "data")
    assert refused  # the disk was full for some of them


def test_games_stats_and_export_read_a_journal_on_a_full_disk(
    disk: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SPLENDOR_DATA_DIR", str(disk / "data"))
    journal_with_a_wal(disk / "data")  # the last games still in its WAL file
    fill(disk)
    assert main(["games"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1 + 3
    assert main(["stats"]) == 0
    assert "Ben" in capsys.readouterr().out
    # Onto another device, to make room: the games can be copied off.
    assert main(["export", "--all", "--to", str(tmp_path / "usb")]) == 0
    assert "3 finished games exported" in capsys.readouterr().out


def test_a_full_disk_during_play_refuses_the_move_and_keeps_every_acknowledged_one(
    disk: Path,
) -> None:
    rng = random.Random(7)
    path = disk / "data" / "games.sqlite3"
    acknowledged = 0
    with Store(path) as store:
        session = Session.start(store, random_setup(rng, ["Ada", "Ben"]))
        dealer = Dealer(session.game, rng)
        fill(disk, 8192)
        with pytest.raises(StoreError) as refused:
            while not session.game.over:
                session.play(dealer.deal(choose(rng, list(session.game.legal_moves()))))
                acknowledged += 1
        assert refused.value.code is ErrorCode.DISK_FULL
        assert "the disk is full" in refused.value.message
        assert len(session.game.moves) == acknowledged  # the refused move was taken back
    with Store(path, reader=True) as store:
        assert len(store.moves(session.game_id)) == acknowledged


# ------------------------------------------------------------------ one writer


def test_a_deleted_lock_file_lets_no_second_writer_in(db_path: Path) -> None:
    with Store(db_path) as first:
        first.lock_path.unlink()
        with pytest.raises(StoreError) as refused:
            Store(db_path)
        assert refused.value.code is ErrorCode.STORE_BUSY
        assert f"(process {os.getpid()})" in refused.value.message


def test_the_busy_message_names_the_process_even_when_the_lock_file_is_empty(
    db_path: Path,
) -> None:
    with Store(db_path) as first:
        os.truncate(first.lock_path, 0)
        with pytest.raises(StoreError) as refused:
            Store(db_path)
        assert f"(process {os.getpid()})" in refused.value.message
        assert "?" not in refused.value.message


def test_readers_leave_a_damaged_journal_where_it_is_and_say_so(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data / "games.sqlite3"
    finished_games(path, (1, 2))
    with open(path, "r+b") as f:  # a page of the tables overwritten
        f.seek(4096)
        f.write(os.urandom(4096 * 3))
    before = path.read_bytes()
    for command in (["games"], ["stats"], ["export", "--all", "--to", str(tmp_path / "usb")]):
        assert main(command) == 2, command
        out, err = capsys.readouterr()
        assert "The games journal is damaged" in err, command  # the page's words
        assert "Nothing was read" in err and "left as it is" in err, command
        assert "exported" not in out
    assert not any(".damaged-" in p.name for p in data.iterdir())  # not set aside
    assert path.read_bytes() == before
    with Store(path) as writer:  # the app: only the writer sets it aside
        assert writer.games() == []
        assert "was damaged: it was kept as" in writer.notices[0]
    assert any(p.name.startswith("games.sqlite3.damaged-") for p in data.iterdir())
