"""The journal against real SQLite files: resume, undo across restarts, damaged files."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from journal import SETUP, play_random

from companion.engine.game import Game
from companion.engine.simulate import Dealer, simulate
from companion.engine.tokens import Colour, Tokens
from companion.errors import ErrorCode
from companion.journal.session import Session
from companion.journal.store import MIGRATIONS, SCHEMA_VERSION, GameState, Store, StoreError
from companion.records.record import Record, move_document, read_move

# Among the tests tools/pi-check runs on the Pi's processor (pytest -m pi).
pytestmark = pytest.mark.pi


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"


def test_journal_uses_wal_full_sync_and_marks_the_file_as_ours(db: Path) -> None:
    with Store(db) as store:
        assert store.durability == ("wal", "full")
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_resume_finds_the_unfinished_game_exactly_where_it_stopped(db: Path) -> None:
    with Store(db) as store:
        session = Session.start(store, SETUP)
        played = play_random(session, 25)
        position = session.game.position()
    with Store(db) as store:
        info = store.latest_unfinished()
        assert info is not None
        assert info.id == session.game_id
        assert info.moves == len(played)
        again = Session.resume(store, info.id)
        assert again.game.position() == position
        assert list(again.game.moves) == played


def test_finished_game_is_not_offered_for_resume(db: Path) -> None:
    game = simulate(players=2, seed=4)
    with Store(db) as store:
        session = Session.start(store, game.setup)
        for move in game.moves:
            session.play(move)
        info = store.info(session.game_id)
        assert info.state == "over"
        assert info.winners == tuple(game.winners())
        assert info.ended_at is not None
        assert store.latest_unfinished() is None


def test_illegal_move_is_refused_and_nothing_is_journaled(db: Path) -> None:
    with Store(db) as store:
        session = Session.start(store, SETUP)
        session.play("take WUG")
        with pytest.raises(Exception, match="take"):
            session.play("take WUGR")
        assert len(store.moves(session.game_id)) == 1


def test_undo_and_redo_survive_a_restart(db: Path) -> None:
    with Store(db) as store:
        session = Session.start(store, SETUP)
        played = play_random(session, 12, seed=3)
        before_undo = [session.game.position()]
        for _ in range(3):
            session.undo()
            before_undo.append(session.game.position())
        position = session.game.position()
    with Store(db) as store:
        again = Session.resume(store, session.game_id)
        assert again.game.position() == position
        assert again.can_redo
        assert again.redo() == played[-3]
        assert again.game.position() == before_undo[2]
    with Store(db) as store:
        again = Session.resume(store, session.game_id)
        assert list(again.game.moves) == played[:-2]
        # A new move forgets what was undone.
        new = next(iter(again.game.legal_moves()))
        again.play(Dealer(again.game, random.Random(1)).deal(new))
        assert not again.can_redo
    with Store(db) as store:
        assert not Session.resume(store, session.game_id).can_redo
        kinds = [e.kind for e in store.events(session.game_id)]
        assert kinds.count("undo") == 3
        assert kinds.count("redo") == 1


def test_undo_restores_nobles_bank_and_reserves_exactly(db: Path) -> None:
    # Find a random game where a noble visits, then undo through that move and back.
    for seed in range(200):
        game = simulate(players=2, seed=seed, max_moves=80)
        if any(s.nobles for s in game.seats):
            break
    with Store(db) as store:
        session = Session.start(store, game.setup)
        positions = [session.game.position()]
        for move in game.moves:
            session.play(move)
            positions.append(session.game.position())
        while session.can_undo:
            session.undo()
            assert session.game.position() == positions[len(session.game.moves)]
            seats = session.game.seats
            placed = [n.id for n in session.game.nobles] + [n.id for s in seats for n in s.nobles]
            assert sorted(placed) == sorted(game.setup.nobles)
    with Store(db) as store:
        again = Session.resume(store, session.game_id)
        assert again.game.position() == positions[0]
        while again.can_redo:
            again.redo()
        assert again.game.position() == positions[-1]


def test_bank_audit_names_the_colours_that_differ_and_changes_nothing(db: Path) -> None:
    with Store(db) as store:
        session = Session.start(store, SETUP)
        session.play("take WUG")
        position = session.game.position()
        expected = session.game.bank
        counted = Tokens._make(
            [
                n - 1 if c == Colour.RED else n + 1 if c == Colour.GOLD else n
                for c, n in enumerate(expected)
            ]
        )
        audit = session.audit(counted)
        assert not audit.ok
        assert audit.differences == {Colour.RED: -1, Colour.GOLD: 1}
        text = " ".join(audit.lines())
        assert "red: 1 missing" in text
        assert "gold: 1 more" in text
        assert session.game.position() == position
        assert session.audit(expected).ok
        audits = [e for e in store.events(session.game_id) if e.kind == "audit"]
        assert [a.detail["ok"] for a in audits if a.detail] == [False, True]


def test_damaged_file_is_set_aside_not_overwritten(db: Path) -> None:
    db.parent.mkdir(parents=True)
    garbage = b"this is not a database\x00" * 100
    db.write_bytes(garbage)
    with Store(db) as store:
        assert store.notices and "damaged" in store.notices[0]
        assert store.games() == []
    kept = [p for p in db.parent.iterdir() if ".damaged-" in p.name]
    assert len(kept) == 1
    assert kept[0].read_bytes() == garbage


def test_foreign_database_is_set_aside(db: Path) -> None:
    db.parent.mkdir(parents=True)
    other = sqlite3.connect(db)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.execute("INSERT INTO recipes VALUES ('bread')")
    other.commit()
    other.close()
    with Store(db) as store:
        assert "not a Splendor Companion journal" in store.notices[0]
    kept = next(
        p
        for p in db.parent.iterdir()
        if ".foreign-" in p.name and not p.name.endswith(("-wal", "-shm"))
    )
    assert sqlite3.connect(kept).execute("SELECT name FROM recipes").fetchone() == ("bread",)


def test_schema_migrates_forward_keeping_games(db: Path) -> None:
    db.parent.mkdir(parents=True)
    old = sqlite3.connect(db, isolation_level=None)
    old.executescript(MIGRATIONS[0])
    old.execute("PRAGMA application_id=0x53504C44")
    old.execute("PRAGMA user_version=1")
    record = json.dumps(
        {
            "format": "splendor-game-record",
            "version": 1,
            "players": list(SETUP.players),
            "setup": {
                "nobles": list(SETUP.nobles),
                "market": {str(i + 1): list(r) for i, r in enumerate(SETUP.market)},
            },
        }
    )
    old.execute(
        "INSERT INTO games (id, started_at, updated_at, players, record) "
        "VALUES (1, 'a', 'b', ?, ?)",
        (json.dumps(list(SETUP.players)), record),
    )
    move = Game(SETUP).parse("take WUG")
    old.execute(
        "INSERT INTO moves (game_id, seq, move) VALUES (1, 1, ?)",
        (json.dumps(move_document(move)),),
    )
    old.close()
    with Store(db) as store:
        session = Session.resume(store, 1)
        assert [str(m) for m in session.game.moves] == ["take WUG"]
        assert [e.kind for e in store.events(1)] == ["move"]
        session.play("take RKW")
        assert len(store.moves(1)) == 2


def test_journal_from_a_newer_version_is_refused_untouched(db: Path) -> None:
    with Store(db):
        pass
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    size = db.stat().st_size
    with pytest.raises(StoreError, match="newer Splendor Companion"):
        Store(db)
    assert db.stat().st_size == size


WRITER = textwrap.dedent(
    """
    import json, random, sys
    from companion.journal.store import Store
    from companion.journal.session import Session
    from companion.engine.simulate import Dealer, choose, random_setup
    path, seed = sys.argv[1], int(sys.argv[2])
    store = Store(path)
    rng = random.Random(seed)
    info = store.latest_unfinished()
    if info is None:
        session = Session.start(store, random_setup(rng, ["Ada", "Ben", "Cleo", "Dev"]))
    else:
        session = Session.resume(store, info.id)
    dealer = Dealer(session.game, rng)
    print("ready", session.game_id, len(session.game.moves), flush=True)
    while not session.game.over:
        move = session.play(dealer.deal(choose(rng, list(session.game.legal_moves()))))
        # Acknowledged: only now would the app show the move as done.
        print("ack", len(session.game.moves), json.dumps(json.dumps(
            __import__("companion.records.record", fromlist=["x"]).move_document(move))),
            flush=True)
    print("over", flush=True)
    """
)


def test_killed_mid_stream_keeps_every_acknowledged_move(db: Path) -> None:
    rng = random.Random(2026)
    acked: dict[int, str] = {}
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    for round_ in range(12):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(round_)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert child.stdout is not None
        ready = child.stdout.readline().split()
        assert ready[0] == "ready", ready
        stop_after = rng.randrange(1, 40)
        for seen, line in enumerate(child.stdout, start=1):
            parts = line.split(" ", 2)
            if parts[0] != "ack":
                break
            acked[int(parts[1])] = json.loads(parts[2])
            if seen >= stop_after:
                break
        child.send_signal(signal.SIGKILL)
        child.wait()
        with Store(db) as store:
            assert store.integrity() == "ok"
            info = store.games()[0]
            stored = [json.dumps(move_document(m)) for m in store.moves(info.id)]
        for number, text in acked.items():
            assert stored[number - 1] == text, f"acknowledged move {number} lost"
        if info.state == "over":
            break
    assert acked


def test_full_disk_refuses_the_move_and_keeps_the_game(tmp_path: Path) -> None:
    # A file size limit stands in for a full disk: SQLite cannot grow the journal.
    script = textwrap.dedent(
        """
        import resource, signal, sys, random
        from companion.journal.store import Store, StoreError
        from companion.journal.session import Session
        from companion.engine.simulate import Dealer, choose, random_setup
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        store = Store(sys.argv[1])
        rng = random.Random(1)
        session = Session.start(store, random_setup(rng, ["Ada", "Ben"]))
        dealer = Dealer(session.game, rng)
        import os, sqlite3
        # The journal moved into the file (a connection of our own): the WAL starts empty.
        raw = sqlite3.connect(sys.argv[1])
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        raw.close()
        files = [sys.argv[1] + s for s in ("", "-wal")]
        size = sum(os.path.getsize(f) for f in files if os.path.exists(f))
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 4096, size + 4096))
        played = 0
        try:
            while True:
                before = session.game.position()
                session.play(dealer.deal(choose(rng, list(session.game.legal_moves()))))
                played += 1
        except StoreError as err:
            assert session.game.position() == before, "the refused move stayed in the engine"
            print(played, err.message)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    db = tmp_path / "games.sqlite3"
    result = subprocess.run(
        [sys.executable, "-c", script, str(db)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    played, message = result.stdout.split(" ", 1)
    assert "cannot save the move" in message
    assert "Nothing was changed" in message
    with Store(db) as store:
        assert store.integrity() == "ok"
        assert len(store.moves(store.games()[0].id)) == int(played)


def test_moves_read_back_are_the_moves_written(db: Path) -> None:
    game = simulate(players=4, seed=8)
    with Store(db) as store:
        game_id = store.import_record(Record.of(game), GameState.of(game))
        assert store.moves(game_id) == list(game.moves)
        with contextlib.closing(sqlite3.connect(db)) as raw:
            text = raw.execute(
                "SELECT move FROM moves WHERE game_id=? AND seq=1", (game_id,)
            ).fetchone()[0]
        assert read_move(json.loads(text)) == game.moves[0]


def test_unwritable_data_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create the folder"):
        Store(blocker / "sub" / "games.sqlite3")


# ------------------------------------------------------------------ one writer, one truth


def test_a_second_store_on_the_journal_is_refused_and_changes_nothing(db: Path) -> None:
    with Store(db) as first:
        session = Session.start(first, SETUP)
        played = play_random(session, 6)
        with pytest.raises(StoreError) as refused:
            Store(db)
        assert refused.value.code is ErrorCode.STORE_BUSY
        assert f"process {os.getpid()}" in refused.value.message
        # The first plays on as if nothing had happened.
        played += play_random(session, 4, seed=1)
    with Store(db) as again:
        assert again.moves(session.game_id) == played


def test_a_reader_reads_a_journal_in_use_and_cannot_write_it(db: Path) -> None:
    game = simulate(players=2, seed=5)
    with Store(db) as writer:
        game_id = writer.import_record(Record.of(game), GameState.of(game))
        with Store(db, reader=True) as reader:
            assert reader.read_only
            assert reader.moves(game_id) == list(game.moves)
            with pytest.raises(StoreError) as refused:
                reader.delete_game(game_id)
            assert refused.value.code is ErrorCode.READ_ONLY
        assert writer.info(game_id).moves == len(game.moves)


def test_the_lock_goes_with_the_store(db: Path) -> None:
    Store(db).close()
    with Store(db) as store:  # closed: free again
        assert store.games() == []


def test_a_reader_alone_does_not_keep_the_app_out(db: Path) -> None:
    game = simulate(players=2, seed=5)
    with Store(db, reader=True) as reader:  # say, export --all on a slow stick
        with Store(db) as app:  # the kiosk starts meanwhile: it gets its journal
            game_id = app.import_record(Record.of(game), GameState.of(game))
        assert reader.moves(game_id) == list(game.moves)


def test_a_move_numbered_other_than_the_journals_is_refused(db: Path) -> None:
    with Store(db) as store:
        here = Session.start(store, SETUP)
        stale = Session.resume(store, here.game_id)  # the same game, opened twice
        here.play("take WUG")
        with pytest.raises(StoreError) as refused:
            stale.play("take RKW")
        assert refused.value.code is ErrorCode.OUT_OF_STEP
        assert "at move 1, the journal at move 2" in refused.value.message
        assert store.moves(here.game_id) == list(here.game.moves)
        assert not stale.game.moves  # the refused move was taken back
        behind = Session.resume(store, here.game_id)
        undone = here.undo()
        with pytest.raises(StoreError):
            behind.undo()
        assert len(behind.game.moves) == 1
        assert store.undone(here.game_id) == [undone]


def test_same_record_imported_twice_is_refused_as_the_game_stored(db: Path) -> None:
    game = simulate(players=3, seed=2)
    with Store(db) as store:
        first = store.import_record(Record.of(game), GameState.of(game))
        # Times, writer and annotations do not make another game.
        again = Record.of(game, started_at="2026-01-01T10:00:00Z", annotations={"a": 1})
        with pytest.raises(StoreError) as refused:
            store.import_record(again, GameState.of(game))
        assert refused.value.code is ErrorCode.ALREADY_STORED
        assert refused.value.message == f"this game is already stored, as game {first}"
        # A game with one move less is another game.
        shorter = Record(game.setup, list(game.moves[:-1]))
        store.import_record(shorter, GameState.of(game))
        assert len(store.games()) == 2


def test_game_numbers_beyond_sqlite_are_no_game(db: Path) -> None:
    with Store(db) as store:
        for number in (10**20, -1, 0):
            with pytest.raises(StoreError) as refused:
                store.record(number)
            assert refused.value.code is ErrorCode.NO_GAME


@pytest.mark.parametrize("folder", ["d%41ta", "a#b", "why?mode=rw", "x%2Fy"])
def test_uri_characters_in_the_folder_are_part_of_its_name(tmp_path: Path, folder: str) -> None:
    db = tmp_path / folder / "games.sqlite3"
    game = simulate(players=2, seed=8)
    with Store(db) as store:
        store.import_record(Record.of(game), GameState.of(game))
    with Store(db) as store:
        assert store.notices == []  # healthy, so not set aside
        assert store.moves(1) == list(game.moves)
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder]
    assert sorted(p.name for p in db.parent.iterdir()) == ["games.sqlite3", "games.sqlite3.lock"]


@pytest.fixture
def read_only_journal(tmp_path: Path) -> Iterator[Path]:
    """A healthy journal in a folder remounted read-only (as an SD card can be)."""
    if os.geteuid() != 0:
        pytest.skip("a read-only mount needs root")
    folder = tmp_path / "card"
    game = simulate(players=2, seed=9)
    with Store(folder / "games.sqlite3") as store:
        store.import_record(Record.of(game), GameState.of(game))
    done = subprocess.run(["mount", "--bind", str(folder), str(folder)], check=False)
    if done.returncode != 0:
        pytest.skip("no right to mount here")
    subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
    try:
        yield folder / "games.sqlite3"
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_read_only_folder_is_said_and_nothing_changes(read_only_journal: Path) -> None:
    before = {p.name: p.read_bytes() for p in read_only_journal.parent.iterdir()}
    with pytest.raises(StoreError) as refused:
        Store(read_only_journal)
    assert refused.value.code is ErrorCode.READ_ONLY
    assert "read-only" in refused.value.message and "damaged" not in refused.value.message
    with Store(read_only_journal, reader=True) as reader:
        assert reader.notices == []
        assert [g.moves for g in reader.games()] == [len(simulate(players=2, seed=9).moves)]
    after = {p.name: p.read_bytes() for p in read_only_journal.parent.iterdir()}
    assert after == before
