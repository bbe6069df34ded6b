"""Export, import, the games list and statistics, through the command line, on real files."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from journal import raw_game, store_games

from companion.cli import main
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write
from companion.reports.export import FORMATS, render

ROOT = Path(__file__).resolve().parent.parent


def test_export_json_is_the_record_replay_accepts(data: Path, tmp_path: Path) -> None:
    (game_id,) = store_games(data, [3])
    out = tmp_path / "game.json"
    assert main(["export", str(game_id), "--format", "json", "--out", str(out)]) == 0
    result = replay(read(out.read_text(encoding="utf-8")))
    assert result.valid
    assert result.game.over
    assert result.game.moves == simulate(players=2, seed=3).moves


def documented_csv_columns() -> list[str]:
    """The CSV export's columns as docs/exports.md lists them, a colour's run spelt out
    (``took_white`` ... ``took_gold``) in the order the page gives."""
    text = (ROOT / "docs" / "exports.md").read_text(encoding="utf-8")
    table = text[text.index("**The CSV export**") :]
    colours = re.search(r"The colours are always in this order: ([a-z, ]+)\.", table)
    assert colours is not None
    names = colours.group(1).split(", ")
    columns: list[str] = []
    for first, last in re.findall(r"^\| `(\w+)`(?: \.\.\. `(\w+)`)? \|", table, re.MULTILINE):
        if last:
            columns += [first.replace(names[0], name) for name in names]
        else:
            columns.append(first)
    return columns


def test_export_csv_has_a_row_per_move_with_points_after(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (game_id,) = store_games(data, [4])
    game = simulate(players=3, seed=4)
    assert main(["export", str(game_id), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(game.moves)
    assert list(rows[0]) == documented_csv_columns()
    colours = ("white", "blue", "green", "red", "black", "gold")
    assert [int(r["move"]) for r in rows] == list(range(1, len(rows) + 1))
    assert rows[-1]["round"] == str(game.round)
    last_points = {}
    for row in rows:
        last_points[row["player"]] = int(row["points_after"])
    assert last_points == {s.name: s.points for s in game.seats}
    takes = [r for r in rows if r["action"] == "take"]
    for row, move in zip(rows, game.moves, strict=True):
        if row["action"] == "take":
            assert [int(row[f"took_{c}"]) for c in colours] == list(move.gems)  # type: ignore[union-attr]
    assert takes
    buys = [r for r in rows if r["action"] == "buy"]
    assert all(r["card"] for r in buys)
    # What a buy paid plus what was given back is what the player's tokens went down by.
    assert any(sum(int(r[f"paid_{c}"]) for c in colours) for r in buys)


def test_export_text_spells_out_a_tie_break(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Find a random game decided by the tie-break (E2), store it, read its summary.
    for seed in range(3000):
        game = simulate(players=2 + seed % 3, seed=seed)
        top = game.standings()
        if game.over and top[0].points == top[1].points:
            break
    else:
        pytest.skip("no tie in the seeds tried")
    with Store(data / "games.sqlite3") as store:
        game_id = store.import_record(Record.of(game), GameState.of(game))
    assert main(["export", str(game_id), "--format", "txt"]) == 0
    text = capsys.readouterr().out
    assert "Final standings" in text
    assert "tied on" in text
    assert top[0].player in text
    assert "Every move" in text


def test_export_all_writes_every_finished_game_only(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_games(data, [1, 2, 5], unfinished=1)
    usb = tmp_path / "usb"
    assert main(["export", "--all", "--to", str(usb)]) == 0
    names = sorted(p.name for p in usb.iterdir())
    assert len(names) == 12
    assert {n.split(".", 1)[1] for n in names} == {"json", "csv", "txt", "bgstats.json"}
    assert not [n for n in names if n.startswith(".")]
    for path in usb.glob("*_g?.json"):
        assert replay(read(path.read_text(encoding="utf-8"))).valid
    for path in usb.glob("*.bgstats.json"):
        play = json.loads(path.read_text(encoding="utf-8"))
        assert play["game"]["bggId"] == 148228 and len(play["players"]) in (2, 3, 4)
    assert "3 finished games exported" in capsys.readouterr().out


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may write to: a read-only mount as root, else plain permissions."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = False
    if os.geteuid() == 0:
        result = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)],
            capture_output=True,
            check=False,
        )
        mounted = result.returncode == 0
        if not mounted:
            pytest.skip("running as root without the right to mount a read-only folder")
    else:
        folder.chmod(0o555)
    yield folder
    if mounted:
        subprocess.run(["umount", str(folder)], check=False)
    else:
        folder.chmod(0o755)


def test_export_to_a_read_only_folder_is_a_clear_error(
    data: Path, read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_games(data, [1])
    assert main(["export", "--all", "--to", str(read_only_folder)]) == 2
    err = capsys.readouterr().err
    assert str(read_only_folder) in err
    assert "Nothing was written there" in err
    assert list(read_only_folder.iterdir()) == []
    with Store(data / "games.sqlite3") as store:
        assert len(store.games()) == 1


def test_interrupted_export_leaves_no_half_file(data: Path, tmp_path: Path) -> None:
    # A file size limit stops the export part-way, as a full stick would: the files of the
    # first game exported fit under it, a larger file of a later game does not.
    store_games(data, [1, 2, 3, 5])
    usb = tmp_path / "usb"
    with Store(data / "games.sqlite3") as store:
        sizes = [
            [len(render(store.record(g.id, with_journal=True), f).encode()) for f in FORMATS]
            for g in store.games()
        ]
    limit = max(sizes[0]) + 1
    assert any(max(s) > limit for s in sizes[1:]), "pick games whose records differ in size"
    script = textwrap.dedent(
        """
        import resource, signal, sys
        from pathlib import Path
        from companion.reports.export import ExportError, export_all
        from companion.journal.store import Store
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        store = Store(Path(sys.argv[2]) / "games.sqlite3")
        store.games()
        limit = int(sys.argv[3])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        try:
            export_all(store, Path(sys.argv[1]))
        except ExportError as err:
            print(err.message, file=sys.stderr)
            sys.exit(2)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", script, str(usb), str(data), str(limit)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 2
    assert "File too large" in result.stderr
    assert "Nothing was written there" in result.stderr
    assert any(usb.iterdir()), "the limit should stop the export part-way, not at once"
    for path in usb.iterdir():
        assert not path.name.startswith("."), f"temporary file left: {path.name}"
        if path.suffix == ".json" and not path.name.endswith(".bgstats.json"):
            assert replay(read(path.read_text(encoding="utf-8"))).valid
    # Whatever was refused, the games are all still there.
    with Store(data / "games.sqlite3") as store:
        assert len(store.games()) == 4


def test_import_stores_a_valid_record(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = simulate(players=4, seed=12)
    path = tmp_path / "in.json"
    path.write_text(write(Record.of(game)), encoding="utf-8")
    assert main(["import", str(path)]) == 0
    assert "Imported as game 1" in capsys.readouterr().out
    with Store(data / "games.sqlite3") as store:
        assert store.moves(1) == list(game.moves)
        assert store.info(1).winners == tuple(game.winners())


@pytest.mark.parametrize("damage", ["truncated", "illegal"])
def test_import_refuses_a_bad_record_and_stores_nothing(
    damage: str, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_games(data, [1])
    text = write(Record.of(simulate(players=2, seed=6)))
    if damage == "truncated":
        text = text[: len(text) // 2]
        expected = 2
    else:
        doc = json.loads(text)
        doc["moves"][5]["player"] = 1 - doc["moves"][5]["player"]
        text = json.dumps(doc)
        expected = 1
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert main(["import", str(path)]) == expected
    err = capsys.readouterr().err
    assert "bad.json" in err
    assert ("not JSON" in err) if damage == "truncated" else ("move 6 is illegal" in err)
    with Store(data / "games.sqlite3") as store:
        assert len(store.games()) == 1


def test_games_lists_date_players_winner_and_state(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_games(data, [1], unfinished=1)
    assert main(["games"]) == 0
    header, *lines = capsys.readouterr().out.strip().splitlines()
    assert header.split() == ["Game", "Started", "Players", "Winner", "State", "Moves"]
    assert len(lines) == 2
    # Each value stands under its column's name.
    state_at = header.index("State")
    winner = simulate(players=3, seed=1).winners()[0]
    finished = next(line for line in lines if line[state_at:].startswith("over"))
    assert finished[header.index("Winner") :].startswith(winner)
    playing = next(line for line in lines if line[state_at:].startswith("playing"))
    assert playing[header.index("Winner") :].startswith("-")


def test_stats_per_player(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seeds = [1, 4, 7]  # three 3-player games of Ada, Ben and Cleo
    store_games(data, seeds)
    games = [simulate(players=3, seed=s) for s in seeds]
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    wins = sum(1 for g in games if "Ada" in g.winners())
    points = sum(g.seat(0).points for g in games) / 3
    rounds = sum(g.round for g in games) / 3
    ada = next(line for line in out.splitlines() if line.startswith("Ada:"))
    assert f"3 games, {wins} wins" in ada
    assert f"{points:.1f} points and {rounds:.1f} rounds" in ada
    assert "favourite bonus" in ada


def test_exported_record_carries_the_tables_log(data: Path, tmp_path: Path) -> None:
    game = simulate(players=2, seed=3, max_moves=6)
    with Store(data / "games.sqlite3") as store:
        session = Session.start(store, game.setup)
        for move in game.moves:
            session.play(move)
        session.undo()
        session.redo()
        session.audit(session.game.bank)
        game_id = session.game_id
    out = tmp_path / "game.json"
    assert main(["export", str(game_id), "--out", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["app"]["name"] == "splendor-companion"
    events = [entry["event"] for entry in doc["annotations"]["journal"]]
    assert events == ["start", *["move"] * 6, "undo", "redo", "audit"]
    assert replay(read(out.read_text(encoding="utf-8"))).valid


# ------------------------------------------------------------------ bad input, refused


def record_file(tmp_path: Path, change: object) -> Path:
    doc = json.loads(write(Record.of(simulate(players=2, seed=6))))
    assert callable(change)
    text = change(doc)
    path = tmp_path / "in.json"
    path.write_text(text if isinstance(text, str) else json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(started_at="../../../x"), "started_at: a time is an ISO 8601"),
        (lambda d: d["players"].__setitem__(0, "\ud800"), "U+D800 at position 1"),
        (lambda d: d["players"].__setitem__(0, "A\nB"), "control characters (U+000A"),
        (lambda d: d["players"].__setitem__(0, "A\x1b[2J"), "control characters (U+001B"),
        (lambda d: d["players"].__setitem__(0, "Ada\x00"), "control characters (U+0000"),
        (lambda d: d["players"].__setitem__(0, "x" * 100_000), "at most 40 characters"),
        (lambda d: d["moves"][0].update(action=["take"]), '["take"] is not an action'),
        (lambda d: d["moves"][0].update(action={"a": 1}), "is not an action"),
        (lambda d: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (lambda d: '{"version": ' + "9" * 5000 + "}", "more than 4,300 digits"),
    ],
)
def test_import_refuses_what_no_record_holds_in_one_line(
    change: object, said: str, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_games(data, [1])
    path = record_file(tmp_path, change)
    assert main(["import", str(path)]) == 2
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert len(err.strip().splitlines()) == 2  # one line each
    with Store(data / "games.sqlite3") as store:
        assert len(store.games()) == 1


def test_import_reads_only_regular_files(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(5 * 1024 * 1024)
    for path in ("/dev/zero", str(fifo), str(tmp_path), str(big)):
        assert main(["import", path]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "/dev/zero is not a regular file" in err[0]
    assert "fifo is not a regular file" in err[1]
    assert "larger than 4 MB" in err[3]


def test_same_record_imported_twice_says_which_game_it_is(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_games(data, [1, 4])
    path = tmp_path / "again.json"
    assert main(["export", "2", "--out", str(path)]) == 0  # with its times and journal
    assert main(["import", str(path)]) == 2
    assert "this game is already stored, as game 2" in capsys.readouterr().err
    assert main(["stats"]) == 0
    assert "Ada: 2 games" in capsys.readouterr().out


def test_export_names_files_only_from_safe_values(data: Path, tmp_path: Path) -> None:
    with Store(data / "games.sqlite3") as store:
        raw_game(store, ["../../Ada", "B/en"], "../../../x")
    stick = tmp_path / "stick" / "splendor-games"
    assert main(["export", "--all", "--to", str(stick)]) == 0
    assert sorted(p.name for p in stick.iterdir()) == [
        f"undated_Ada-Ben_g1.{suffix}" for suffix in ("bgstats.json", "csv", "json", "txt")
    ]
    assert sorted(p.name for p in (tmp_path / "stick").iterdir()) == ["splendor-games"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "stick"]


def test_export_all_goes_on_past_a_game_it_cannot_read(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(data / "games.sqlite3") as store:
        bad = raw_game(store, ["\ud800", "Ben"], "2026-11-21T20:00:00Z")
    store_games(data, [4])
    assert main(["export", "--all", "--to", str(tmp_path / "usb")]) == 2
    out, err = capsys.readouterr()
    assert "1 finished game exported: 4 files" in out
    assert f"game {bad} in the journal cannot be read" in err
    assert main(["games"]) == 0
    assert "\ufffd, Ben" in capsys.readouterr().out


def test_games_and_text_export_show_no_escape_sequence(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(data / "games.sqlite3") as store:
        raw_game(store, ["Ada\x1b]0;owned\x07\x1b[2J", "Ben\r\nforged line"], "2026-11-21T20:00")
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert out.count("\n") == 2  # the header and the game
    assert "Ada, Benforged line" in out
    # A record built in code is not checked like a file: the text export still holds up.
    odd = Record.of(simulate(players=2, seed=3), started_at="2026\x1b]52;c;cm0gLXJm\x07\nForged")
    text = render(odd, "txt")
    assert "\x1b" not in text and "\x07" not in text
    assert "\nForged" not in text and "Started 2026Forged" in text


def test_csv_writes_a_formula_name_as_text(data: Path, tmp_path: Path) -> None:
    game = simulate(players=2, seed=3)
    doc = json.loads(write(Record.of(game)))
    doc["players"] = ["=cmd|' /C calc'!A0", "@SUM(1+1)"]
    rows = list(csv.DictReader(io.StringIO(render(read(json.dumps(doc)), "csv"))))
    assert {r["player"] for r in rows} == {"'=cmd|' /C calc'!A0", "'@SUM(1+1)"}


@pytest.fixture
def exported(data: Path) -> int:
    (game_id,) = store_games(data, [3])
    return game_id


def test_out_refuses_a_link_and_writes_into_a_fifo_and_a_device(
    exported: int, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert main(["export", str(exported), "--format", "txt", "--out", str(link)]) == 2
    assert link.is_symlink() and target.read_text() == "old"
    assert capfd.readouterr().err == (
        f"cannot write {link}: it is a link, not a file: remove it or give another file. "
        "Nothing was written there.\n"
    )
    # The command's own output is a link into /proc, and is written all the same.
    assert main(["export", str(exported), "--format", "txt", "--out", "/dev/stdout"]) == 0
    assert capfd.readouterr().out.startswith("Splendor: ")

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["export", str(exported), "--format", "csv", "--out", str(fifo)]) == 0
    reader.join(timeout=60)  # a hang is a failure, not a wait for ever
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].decode("utf-8-sig").startswith("move,")

    if os.geteuid() == 0:  # a device node of our own, not the machine's
        null = tmp_path / "null"
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        assert main(["export", str(exported), "--out", str(null)]) == 0
        assert stat.S_ISCHR(os.lstat(null).st_mode)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")]
    assert leftovers == []


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640)])
def test_export_files_take_the_umask_and_keep_their_mode(
    exported: int, tmp_path: Path, umask: int, mode: int
) -> None:
    old = os.umask(umask)
    try:
        out = tmp_path / "game.csv"
        assert main(["export", str(exported), "--format", "csv", "--out", str(out)]) == 0
        assert stat.S_IMODE(out.stat().st_mode) == mode
        out.chmod(0o604)
        assert main(["export", str(exported), "--format", "csv", "--out", str(out)]) == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o604
        assert main(["export", "--all", "--to", str(tmp_path / "usb")]) == 0
        assert {stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "usb").iterdir()} == {mode}
    finally:
        os.umask(old)


def test_a_full_output_is_one_line_and_exit_2_in_every_command(
    exported: int, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "r.json"
    record.write_text(write(Record.of(simulate(players=2, seed=11))), encoding="utf-8")
    commands = [
        ["replay", str(record)],
        ["replay", "--json", str(record)],
        ["simulate"],
        ["games"],
        ["export", str(exported)],
        ["stats"],
        ["names"],
        ["import", str(record)],
    ]
    with Store(data / "games.sqlite3") as store:  # a merge to list (Ada L. never played)
        store.merge_name("Ada L.", "Ada")
    for argv in commands:
        shown = sys.stdout
        with open("/dev/full", "w") as full:
            sys.stdout = full
            try:
                code = main(argv)
            finally:
                sys.stdout = shown
        assert code == 2, argv
    err = capsys.readouterr().err.splitlines()
    assert err == ["cannot write the output: no space left on the device"] * len(commands)


def test_a_game_number_too_big_for_anyone_is_no_game(
    exported: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "100000000000000000000"]) == 2
    assert capsys.readouterr().err == "there is no game 100000000000000000000 in the journal\n"


def test_export_csv_says_which_seats_the_companion_played(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "companion.json"
    assert (
        main(
            [
                "simulate",
                "--seats",
                "easy,hard",
                "--think",
                "0.01",
                "--seed",
                "3",
                "--out",
                str(record),
            ]
        )
        == 0
    )
    assert main(["import", str(record)]) == 0
    capsys.readouterr()
    assert main(["export", "1", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff"))))
    by_seat = {r["player"]: r["played_by"] for r in rows}
    assert sorted(by_seat.values()) == ["companion easy", "companion hard"]
    assert len(by_seat) == 2
