"""What a record, a position or a command line may hold, bounded where it comes in:
times a program can write, whole numbers a game allows, one spelling per name, JSON as the
standard has it. Each refusal is one translated line, exit status 2, nothing stored; a game
an older companion let in is still listed and exported with the others."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from helpers import alarm

from companion import i18n
from companion.cli import main
from companion.engine.game import Game
from companion.engine.setup import Setup
from companion.engine.simulate import simulate
from companion.errors import ErrorCode, RecordError, Refused
from companion.journal.declaring import NewGame
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, read_document, replay, write
from companion.reports.bgstats import bgstats_time
from companion.reports.export import FORMATS

BASE = json.loads(write(Record.of(simulate(players=2, seed=1), app={"name": "test", "seed": 1})))
ZOE = "Zo\u00e9"  # as the kiosk's keyboard types it (é, one character)
ZOE_DECOMPOSED = unicodedata.normalize("NFD", ZOE)  # as a Mac writes it (e + ́)


def doc(**changes: Any) -> dict[str, Any]:
    """A real record (a simulated game) with top-level keys changed."""
    return {**json.loads(json.dumps(BASE)), **changes}


def with_move(index: int, move: dict[str, Any]) -> dict[str, Any]:
    changed = doc()
    changed["moves"][index] = move
    return changed


def import_file(
    tmp_path: Path, content: str | dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """``splendor-companion import FILE``: its exit status and what it said on stderr."""
    path = tmp_path / "game.json"
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    code = main(["import", str(path)])
    return code, capsys.readouterr().err


def journal(data: Path) -> list[str]:
    path = data / "games.sqlite3"
    if not path.exists():
        return []
    db = sqlite3.connect(path)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def assert_refused(
    tmp_path: Path,
    data: Path,
    content: str | dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    *words: str,
) -> str:
    """Import refuses the file: exit 2, one line naming what is wrong, the journal as it was."""
    before = journal(data)
    code, err = import_file(tmp_path, content, capsys)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert len(err) < 300, err  # a short line, whatever the file held
    for word in words:
        assert word in err, err
    assert journal(data) == before
    return err


# ------------------------------------------------------------------ times


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("started_at", "9999-12-31T23:59:59-14:00"),  # the year 10000 in UTC
        ("started_at", "0001-01-01T00:00:00+14:00"),  # the year 0 in UTC
        ("started_at", "1969-12-31T23:59:59Z"),
        ("ended_at", "9001-01-01T00:00:00Z"),
        ("ended_at", "9000-12-31T23:59:59-00:01"),
    ],
)
def test_a_time_no_program_can_write_is_refused_at_import_naming_field_and_range(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], key: str, value: str
) -> None:
    err = assert_refused(tmp_path, data, doc(**{key: value}), capsys, key, "1970", "9000")
    assert value in err


@pytest.mark.parametrize(
    "value", ["1970-01-01T00:00:00Z", "9000-12-31T23:59:59Z", "2026-11-21T20:15:00", "2026-11-21"]
)
def test_times_at_the_edges_of_the_range_are_imported(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    code, err = import_file(tmp_path, doc(started_at=value), capsys)
    assert code == 0, err


def test_the_time_refusal_is_translated(tmp_path: Path, data: Path) -> None:
    i18n.set_language("fr")
    with pytest.raises(RecordError) as info:
        read(json.dumps(doc(started_at="9999-12-31T23:59:59-14:00")))
    assert info.value.message.startswith("started_at: une date entre 1970")


def older_journal(data: Path) -> tuple[int, int, int]:
    """A journal where an older companion stored a game beginning in the year 9999 (-14:00:
    the year 10000 in UTC) between two ordinary games; the game ids."""
    ids = []
    with Store(data / "games.sqlite3") as store:
        for seed, started in [
            (2, "2026-11-20T19:00:00Z"),
            (3, "9999-12-31T23:59:59-14:00"),
            (4, "0001-01-01T00:00:00+14:00"),
        ]:
            game = simulate(players=2, seed=seed)
            # read_document: the checks of an older companion (the shape only).
            record = read_document({**json.loads(write(Record.of(game))), "started_at": started})
            ids.append(store.import_record(record, GameState.of(replay(record).game)))
    return ids[0], ids[1], ids[2]


def test_a_damaged_time_in_an_older_journal_never_hides_a_game_from_export(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ordinary, late, early = older_journal(data)
    usb = tmp_path / "usb"
    code = main(["export", "--all", "--to", str(usb)])
    assert code == 0, capsys.readouterr().err
    assert "3 finished games exported" in capsys.readouterr().out
    written = sorted(p.name for p in usb.iterdir())
    assert len(written) == 3 * len(FORMATS)
    for game_id in (ordinary, late, early):
        assert sum(name.endswith(f"_g{game_id}.json") for name in written) == 1
        assert main(["export", str(game_id), "--format", "bgstats"]) == 0
        said = capsys.readouterr().out
        play = json.loads(said)
        # A date BG Stats could not read is left out (it then takes the day of saving).
        assert ("playDate" in play) == (game_id == ordinary)
    assert main(["games"]) == 0
    assert main(["stats"]) == 0


def test_bgstats_leaves_out_a_date_it_cannot_write() -> None:
    assert bgstats_time("9999-12-31T23:59:59-14:00") is None
    assert bgstats_time("0001-01-01T00:00:00+14:00") is None
    assert bgstats_time("2026-11-21T21:15:00+01:00") == "2026-11-21 20:15:00"


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("move", "place"),
    [
        ({"player": 0, "action": "reserve", "deck": 1.0}, "move 1 (deck)"),
        ({"player": 0, "action": "reserve", "deck": True}, "move 1 (deck)"),
        ({"player": 0.0, "action": "pass"}, "move 1 (player)"),
        ({"player": False, "action": "pass"}, "move 1 (player)"),
        ({"player": 4, "action": "pass"}, "move 1 (player)"),
        ({"player": int("9" * 4300), "action": "pass"}, "move 1 (player)"),
        ({"player": 0, "action": "take", "gems": {"red": 2.0}}, "move 1 (gems.red)"),
        ({"player": 0, "action": "take", "gems": {"red": True}}, "move 1 (gems.red)"),
        ({"player": 0, "action": "take", "gems": {"red": 8}}, "move 1 (gems.red)"),
        ({"player": 0, "action": "take", "gems": {"gold": 6}}, "move 1 (gems.gold)"),
        (
            {"player": 0, "action": "take", "gems": {"red": 1}, "returned": {"red": 10**4299}},
            "move 1 (returned.red)",
        ),
    ],
)
def test_every_whole_number_of_a_move_is_bounded_where_it_enters(
    tmp_path: Path,
    data: Path,
    capsys: pytest.CaptureFixture[str],
    move: dict[str, Any],
    place: str,
) -> None:
    err = assert_refused(tmp_path, data, with_move(0, move), capsys, place)
    assert "9" * 40 not in err  # a number of 4,300 digits is quoted cut short


def test_a_version_is_the_whole_number_1_not_1_0_nor_true(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for version in (1.0, True):
        assert_refused(tmp_path, data, doc(version=version), capsys, "version")


def test_a_number_the_engine_would_make_longer_is_said_cut_short() -> None:
    """The engine says a seat as a person counts it (from 1): the 4,300 digits of a seat
    given in code become 4,301, which Python refuses to write."""
    game = Game(simulate(players=2, seed=1).setup)
    from companion.engine.moves import Pass

    reason = game.explain(Pass(player=int("9" * 4300)))
    assert reason is not None
    assert len(reason.message) < 200


def test_a_huge_name_in_the_file_is_quoted_cut_short(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_refused(tmp_path, data, doc(**{"x" * 100_000: 1}), capsys, "unknown key")


# ------------------------------------------------------------------ positions

MARKET = "1W1,1W2,1W3,1W4/2W1,2W2,2W3,2W4/3W1,3W2,3W3,3W4"
START = f"W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 {MARKET} 36,26,16 N1,N2,N3 0 0 1 playing"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # The bank and hands: at most the supply of a colour, 10 tokens in a hand.
        (START.replace("W4U4", "W64U4", 1), "position.bank"),
        (START.replace("W4U4", "W5U4", 1), "position.bank"),
        (START.replace("-:-:-:-:0/", "W44:-:-:-:0/", 1), "position.seats[0].tokens"),
        (START.replace("-:-:-:-:0/", "W4U4G3:-:-:-:0/", 1), "position.seats[0].tokens"),
        (START.replace("W4U4", "W" + "9" * 5000 + "U4", 1), "position.bank"),
        # Numbers: digits counted before they are read, each bounded.
        (START.replace(" 0 0 1 ", " 0 0 " + "9" * 5000 + " ", 1), "position.round"),
        (START.replace(" 0 0 1 ", " 0 3 1 ", 1), "position.passes"),
        (START.replace(":0/", ":999/", 1), "position.seats[0].points"),
        (START.replace("36,26,16", "37,26,16", 1), "position.decks"),
        # Places: a card, a noble in one place; 3 reserved at most; nobles as revealed.
        (START.replace("-:-:-:-:0/", "-:1W1:-:-:1/", 1), "position.seats[0].cards"),
        (START.replace("-:-:-:-:0/", "-:-:-:N1:3/", 1), "position.seats[0].nobles"),
        (START.replace("-:-:-:-:0/", "-:-:L1?,L1?,L2?,L3?:-:0/", 1), "position.seats[0].reserved"),
        (START.replace("N1,N2,N3", "N1,N2,N3,N4", 1), "position.nobles"),
        # Every level-1 card is on the table or in a hand: the deck cannot hold 36 more.
        (START.replace("-:-:-:-:0/", "-:-:L1?:-:0/", 1), "position.decks"),
    ],
)
def test_a_count_beyond_what_the_game_allows_is_a_record_error_naming_its_field(
    text: str, where: str
) -> None:
    with pytest.raises(RecordError) as info:
        Game.from_text(text)
    assert info.value.path == where, info.value.message
    assert info.value.code == ErrorCode.MALFORMED_RECORD
    assert info.value.message.startswith(where)
    assert len(info.value.message) < 300


def test_a_bank_within_its_supply_plays_on() -> None:
    game = Game.from_text(START.replace("W4U4", "W2U4", 1))
    game.push("take WW".replace("WW", "UU"))
    assert game.bank.blue == 2


# ------------------------------------------------------------------ names


def test_one_name_in_two_unicode_spellings_is_refused_as_a_duplicate(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ZOE != ZOE_DECOMPOSED
    assert_refused(
        tmp_path, data, doc(players=[ZOE, ZOE_DECOMPOSED]), capsys, "players", "same name"
    )


def test_a_decomposed_name_is_stored_composed(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = import_file(tmp_path, doc(players=[ZOE_DECOMPOSED, " Ben "]), capsys)
    assert code == 0, err
    with Store(data / "games.sqlite3") as store:
        (info,) = store.games()
        assert info.players == (ZOE, "Ben")
        assert store.record(info.id).players == (ZOE, "Ben")


def test_every_way_into_a_game_normalises_names() -> None:
    market = ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"]
    assert Setup.of([ZOE_DECOMPOSED, "Ben"], ["N1", "N2", "N3"], market).players[0] == ZOE
    with pytest.raises(Refused):  # the new-game screen
        NewGame([ZOE, ZOE_DECOMPOSED])
    assert NewGame([ZOE_DECOMPOSED, "Ben"]).players[0] == ZOE
    text = Game.from_text(START, names=[ZOE_DECOMPOSED, "Ben"])
    assert text.names[0] == ZOE
    with pytest.raises(RecordError):
        Game.from_text(START, names=[ZOE, ZOE_DECOMPOSED])


def test_names_typed_on_the_command_line_are_normalised(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Zoé and Zoe each played a game (a merge takes only names that played).
    text = write(Record.of(simulate(players=2, seed=1)))
    with Store(data / "games.sqlite3") as store:
        for names in (f'["{ZOE}", "Ben"]', '["Zoe", "Cleo"]'):
            record = read(text.replace('["Ada", "Ben"]', names))
            store.import_record(record, GameState.of(replay(record).game))
    assert main(["names", "--merge", ZOE_DECOMPOSED, "Zoe"]) == 0
    with Store(data / "games.sqlite3") as store:
        assert store.aliases() == {ZOE: "Zoe"}
    assert main(["names", "--unmerge", ZOE_DECOMPOSED]) == 0
    with Store(data / "games.sqlite3") as store:
        assert store.aliases() == {}


# ------------------------------------------------------------------ JSON


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_nan_and_infinity_are_refused(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], constant: str
) -> None:
    text = json.dumps(doc()).replace('"app": {', f'"app": {{"think": {constant}, ', 1)
    assert constant in text
    assert_refused(tmp_path, data, text, capsys, constant.lstrip("-"), "null")


def test_no_json_writer_writes_nan() -> None:
    record = Record.of(simulate(players=2, seed=1), app={"think": float("nan")})
    with pytest.raises(ValueError):
        write(record)


@pytest.mark.parametrize(("key", "where"), [("player", '"moves": [{'), ("seed", '"app": {')])
def test_a_name_twice_in_one_object_is_refused_naming_it(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], key: str, where: str
) -> None:
    text = json.dumps(doc()).replace(where, f'{where}"{key}": 1, ', 1)
    assert_refused(tmp_path, data, text, capsys, f'"{key}"', "twice")


def test_a_record_that_starts_with_a_byte_order_mark_is_read(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CSV export writes one for spreadsheets; an editor may keep one in a record."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(doc()).encode("utf-8"))
    assert main(["replay", str(path)]) == 0
    assert main(["import", str(path)]) == 0, capsys.readouterr().err


# ------------------------------------------------------------------ simulate --think


@pytest.mark.parametrize("think", ["nan", "inf", "-inf", "0", "-1", "0.001", "1e6", "61", "x", ""])
def test_simulate_refuses_a_think_time_out_of_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], think: str
) -> None:
    out = tmp_path / "game.json"
    with pytest.raises(SystemExit) as info, alarm(30):  # 1e6 once played for ever
        main(["simulate", "--seats", "hard,easy", f"--think={think}", "--out", str(out)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--think" in err and "from 0.01 to 60" in err, err
    assert "Traceback" not in err
    assert not out.exists()


def test_simulate_writes_a_think_time_within_range(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    assert main(["simulate", "--seats", "easy,easy", "--think", "0.01", "--out", str(out)]) == 0
    assert read(out.read_text(encoding="utf-8")).extra["app"]["think"] == 0.01


def test_the_companions_benchmark_takes_the_same_think_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from companion.coach import bench

    with pytest.raises(SystemExit) as info, alarm(30):
        bench.main(["--think", "nan", "--games", "1"])
    assert info.value.code == 2
    assert "from 0.01 to 60" in capsys.readouterr().err
