"""Records, moves, names and positions from strangers, generated: the program holds up.

Each example is a real record with something replaced by what a careless or hostile writer
might put there (any JSON value, a name with control characters or a lone surrogate, a
move of the wrong shape, a huge number, a float or a bool for a whole number, a date at the
end of time, NaN, a name twice in an object, a byte-order mark, one name in two Unicode
spellings, deep nesting). ``import`` and ``replay`` run in-process through
:func:`companion.cli.main`; whatever the input, they end with exit 0, 1 (an illegal move)
or 2 and no traceback, the refusal being the one error type (:class:`RecordError`) said in
one line, and a refused import leaves the journal byte for byte as it was. What is read
exports in every format. Position texts (mutations of real games' text forms) are read
into a game that plays on, or refused with a :class:`RecordError` naming the field. A hang
would be caught by an alarm (a failure, not a timing).

The runs are kept to a few seconds each; ``HYPOTHESIS_PROFILE=long`` tries 50 times more
examples (``docs/bad-input.md``).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from helpers import run
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.engine.game import Game
from companion.engine.moves import with_reveal
from companion.engine.simulate import simulate
from companion.errors import CompanionError, ErrorCode, RecordError
from companion.journal.session import Session
from companion.journal.store import Store
from companion.records.record import Record, read, read_move, replay, write
from companion.reports.export import FORMATS, render
from companion.text import MAX_NAME_LENGTH, check_name, printable

BASE = json.loads(
    write(
        Record.of(
            simulate(players=3, seed=21),
            started_at="2026-11-21T20:15:00Z",
            app={"name": "splendor-companion simulate", "seed": 21},
        )
    )
)


def examples(n: int) -> int:
    """``n`` examples in the suite; 50 times more for a long run on a developer's machine."""
    return n * 50 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else n


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
# Names as strangers write them: letters, and what no one types (controls, separators,
# bidi overrides, lone surrogates), short and long.
NAMES = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(["\x00", "\x1b", "\r", "\n", "\u2028", "\u202e", "\ud800", "\udfff"]),
    ),
    max_size=MAX_NAME_LENGTH + 5,
)
KEYS = st.sampled_from(
    [
        "player",
        "action",
        "action",
        "player",
        "gems",
        "card",
        "deck",
        "payment",
        "reveal",
        "returned",
        "noble",
        "extra",
    ]
)
MOVES = st.dictionaries(
    KEYS, JSON | st.sampled_from(["take", "buy", "reserve", "pass", "1W1"]), max_size=5
)


def _set_name(doc: dict[str, Any], data: tuple[int, str]) -> str | None:
    doc["players"][data[0] % len(doc["players"])] = data[1]
    return None


def _set_move(doc: dict[str, Any], data: tuple[int, dict[str, Any]]) -> str | None:
    doc["moves"][data[0] % len(doc["moves"])] = data[1]
    return None


def _set_field(doc: dict[str, Any], data: tuple[int, str, Any]) -> str | None:
    doc["moves"][data[0] % len(doc["moves"])][data[1]] = data[2]
    return None


def _set_top(doc: dict[str, Any], data: tuple[str, Any]) -> str | None:
    doc[data[0]] = data[1]
    return None


def _cut(doc: dict[str, Any], data: int) -> str | None:
    del doc["moves"][data % len(doc["moves"]) :]
    return None


def _raw(doc: dict[str, Any], data: tuple[str, int]) -> str | None:
    kind, n = data
    if kind == "deep":
        return "[" * n + "]" * n
    if kind == "digits":
        return '{"format": "splendor-game-record", "version": ' + "7" * n + "}"
    return json.dumps(doc)[: n % 4000]


# Whole numbers as a careless writer has them: floats and bools that Python takes for ints,
# numbers far beyond a game's, and the longest Python reads (4,300 digits).
NUMBERS = st.one_of(
    st.integers(-2, 12),
    st.sampled_from([0.0, 1.0, 2.0, 2.5, -1.0, True, False, 1e308]),
    st.integers(1, 4300).map(lambda digits: int("9" * digits)),
    st.integers(1, 4299).map(lambda digits: -int("9" * digits)),
)
NUMBER_FIELDS = st.sampled_from(
    ["player", "deck", "gems.white", "gems.gold", "payment.red", "returned.black", "version"]
)


def _set_number(doc: dict[str, Any], data: tuple[int, str, Any]) -> str | None:
    at, field, value = data
    if field == "version":
        doc["version"] = value
        return None
    move = doc["moves"][at % len(doc["moves"])]
    name, _, colour = field.partition(".")
    move[name] = {colour: value} if colour else value
    return None


# Times from the year 1 to 9999 in every offset a zone may have: most beyond what a
# program writes once in UTC or local time at the ends of that range.
TIMES = st.builds(
    lambda at, minutes: at.replace(tzinfo=timezone(timedelta(minutes=minutes))).isoformat(),
    st.datetimes(),
    st.integers(-14 * 60, 14 * 60),
) | st.datetimes().map(lambda at: at.isoformat())


def _set_time(doc: dict[str, Any], data: tuple[str, str]) -> str | None:
    doc[data[0]] = data[1]
    return None


def _text(doc: dict[str, Any], data: tuple[str, int]) -> str | None:
    """The record's text with what json reads but the standard has not: NaN and infinities,
    a name twice in one object; a byte-order mark; a name in its decomposed spelling."""
    kind, n = data
    text = json.dumps(doc, ensure_ascii=False)
    if kind == "nan":
        constant = ["NaN", "Infinity", "-Infinity", "1e400"][n % 4]
        return text.replace('"app": {', f'"app": {{"think": {constant}, ', 1)
    if kind == "twice":
        objects = [m.end() for m in re.finditer(r'\{"player": ', text)]
        at = objects[n % len(objects)]
        return text[:at] + f"{n % 4}, " + '"player": ' + text[at:]
    if kind == "bom":
        return "\ufeff" + text
    # One name composed, then decomposed in another seat (or alone: stored composed).
    name = "Zo\u00e9"
    doc["players"][0] = name
    doc["players"][1 + n % 2] = unicodedata.normalize("NFD", name if n % 3 else "Ele\u0301na")
    return None


# The words of a typed move, for texts that come close to one.
MOVE_WORDS = [
    "take",
    "buy",
    "reserve",
    "pass",
    "WUG",
    "WW",
    "RRK",
    "1W1",
    "2W1",
    "3W1",
    "deck",
    "1",
    "noble",
    "N1",
    "return",
    "W",
    "gold",
    "9",
    "-1",
    "reveal",
]

Change = tuple[Callable[[dict[str, Any], Any], str | None], Any]
CHANGES: st.SearchStrategy[Change] = st.one_of(
    st.none().map(lambda _: (lambda d, x: None, None)),  # the record itself: already stored
    st.tuples(st.integers(0, 3), NAMES).map(lambda x: (_set_name, x)),
    st.tuples(st.integers(0, 200), MOVES).map(lambda x: (_set_move, x)),
    st.tuples(st.integers(0, 200), KEYS, JSON).map(lambda x: (_set_field, x)),
    st.tuples(
        st.sampled_from(
            [
                "players",
                "setup",
                "started_at",
                "ended_at",
                "moves",
                "version",
                "annotations",
                "app",
                "other",
            ]
        ),
        JSON,
    ).map(lambda x: (_set_top, x)),
    st.integers(0, 200).map(lambda x: (_cut, x)),
    st.tuples(st.sampled_from(["deep", "digits", "cut"]), st.integers(1, 200_000)).map(
        lambda x: (_raw, x)
    ),
    st.tuples(st.integers(0, 200), NUMBER_FIELDS, NUMBERS).map(lambda x: (_set_number, x)),
    st.tuples(st.sampled_from(["started_at", "ended_at"]), TIMES).map(lambda x: (_set_time, x)),
    st.tuples(st.sampled_from(["nan", "twice", "bom", "nfd"]), st.integers(0, 300)).map(
        lambda x: (_text, x)
    ),
)


def changed(change: Change) -> str:
    """The text of the base record with ``change`` made."""
    doc = json.loads(json.dumps(BASE))
    apply, data = change
    raw = apply(doc, data)
    return raw if raw is not None else json.dumps(doc, ensure_ascii=False)


def journal(path: Path) -> list[str]:
    """Everything the journal holds, as SQL (a refused import must not change a line)."""
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return list(db.iterdump())
    finally:
        db.close()


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name)
        (path / "base.json").write_text(json.dumps(BASE), encoding="utf-8")
        old = os.environ.get("SPLENDOR_DATA_DIR")
        os.environ["SPLENDOR_DATA_DIR"] = str(path / "data")
        try:
            assert main(["import", str(path / "base.json")]) == 0
            yield path
        finally:
            if old is None:
                del os.environ["SPLENDOR_DATA_DIR"]
            else:
                os.environ["SPLENDOR_DATA_DIR"] = old


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(change=CHANGES)
# Inputs once taken in or ended in a traceback, always tried; the generated ones look around them.
@example(change=(_set_field, (0, "action", ["take"])))
@example(change=(_set_field, (3, "action", {"take": 1})))
@example(change=(_set_field, (1, "player", 10**4000)))
@example(change=(_set_name, (0, "\ud800")))
@example(change=(_set_name, (1, "Ben\nForged: line")))
@example(change=(_set_top, ("started_at", "../../../x")))
@example(change=(_raw, ("deep", 100_000)))
@example(change=(_raw, ("digits", 5000)))
@example(change=(_set_time, ("started_at", "9999-12-31T23:59:59-14:00")))
@example(change=(_set_time, ("started_at", "0001-01-01T00:00:00+14:00")))
@example(change=(_set_number, (2, "deck", 1.0)))
@example(change=(_set_number, (1, "player", int("9" * 4300))))
@example(change=(_text, ("nan", 0)))
@example(change=(_text, ("twice", 5)))
@example(change=(_text, ("bom", 0)))
@example(change=(_text, ("nfd", 1)))
def test_strangers_records_end_in_0_1_or_2_and_a_refusal_changes_nothing(
    folder: Path, change: Change
) -> None:
    text = changed(change)
    path = folder / "in.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    db = folder / "data" / "games.sqlite3"
    before = journal(db)
    try:
        read(path.read_bytes().decode("utf-8"))
        readable = True
    except (RecordError, UnicodeDecodeError):  # the one error type (or not UTF-8 at all)
        readable = False
    code, err = run(["replay", str(path)])
    assert code in ((0, 1) if readable else (2,)), err
    code, err = run(["import", str(path)])
    assert code in (0, 1, 2), err
    if code != 0:
        assert len(err.strip().splitlines()) == 1, err  # one line, no traceback
        assert journal(db) == before
    code, err = run(["games"])
    assert code == 0, err


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(change=CHANGES)
@example(change=(_set_time, ("ended_at", "9999-12-31T23:59:59-14:00")))
@example(change=(_set_number, (0, "returned.black", int("9" * 4300))))
def test_a_record_is_read_whole_and_exports_or_is_refused_with_one_error_type(
    change: Change,
) -> None:
    """In-process and quicker than the command line: read() gives a record or a
    RecordError, nothing else; a record it gives replays and exports in every format."""
    try:
        record = read(changed(change))
    except RecordError as err:
        assert err.code in (ErrorCode.MALFORMED_RECORD, ErrorCode.MALFORMED_MOVE)
        message = err.message
        assert message and "\n" not in message and len(message) < 400, message
        return
    result = replay(record)
    if result.error is not None:
        assert len(result.error.message) < 400
    for fmt in FORMATS:
        assert render(record, fmt)
    assert read(write(record)).players == record.players


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES)
def test_a_name_is_accepted_exactly_when_it_shows_as_typed(name: str) -> None:
    try:
        check_name(name)
    except RecordError as err:
        assert err.message
        assert len(name) > MAX_NAME_LENGTH or not name.strip() or printable(name) != name
    else:
        assert printable(name) == name
        name.encode("utf-8")  # a file, a terminal can hold it


@pytest.fixture(scope="module")
def table() -> Iterator[tuple[Session, Path]]:
    with tempfile.TemporaryDirectory() as name:
        db = Path(name) / "games.sqlite3"
        with Store(db) as store:
            session = Session.start(store, simulate(players=2, seed=4).setup)
            yield session, db


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    move=st.one_of(
        st.text(max_size=30),
        st.builds(" ".join, st.lists(st.sampled_from(MOVE_WORDS), min_size=1, max_size=5)),
        MOVES,
    )
)
@example(move="take WUG")
@example(move={"player": 0, "action": "take", "gems": {"white": 1, "blue": 1, "green": 1}})
@example(move={"player": 0, "action": ["take"]})
@example(move={"player": 10**4000, "action": "pass"})
def test_a_declared_move_is_played_or_refused_whole(
    table: tuple[Session, Path], move: str | dict[str, Any]
) -> None:
    """Whatever is declared at the table (typed, or read as a record's move object), the
    engine and the journal either take it whole or refuse it with a message."""
    session, db = table
    before = journal(db)
    moves = session.game.moves
    try:
        if isinstance(move, dict):
            session.play(read_move(move))
        else:
            session.play(move)
    except (CompanionError, ValueError) as err:
        # The text form is the developers' notation: its refusal is a ValueError naming
        # the wrong word (documented); anything from a record or the table is ours.
        assert str(err)
        assert isinstance(err, CompanionError) or isinstance(move, str)
        assert session.game.moves == moves
        assert journal(db) == before
    else:
        assert len(session.game.moves) == len(moves) + 1
        assert session.store.moves(session.game_id) == list(session.game.moves)
        session.undo()  # keep the table where the next example expects it


# ------------------------------------------------------------------ position texts


def _positions() -> list[str]:
    """Real positions' text forms: games of 2, 3 and 4 players, every tenth move."""
    texts = []
    for seed, players in ((5, 2), (6, 3), (7, 4)):
        game = simulate(players=players, seed=seed)
        replayed = Game(game.setup)
        for number, move in enumerate(game.moves):
            if number % 10 == 0:
                texts.append(replayed.text())
            replayed.push(move)
        texts.append(replayed.text())
    return texts


POSITIONS = _positions()
# What a garbled text holds in place of a part: counts the game has not (W64, a round of
# 5,000 digits), ids that are not, parts out of place, separators.
POSITION_WORDS = [
    *("-", "0", "1", "3", "4", "5", "8", "10", "11", "64", "99", "9999", "10000"),
    *("W64", "*9", "W", "WW", "W0", "U44", "L1?", "L2?", "L4?", "L0?"),
    *("1W1", "2W1", "3W1", "N1", "N10", "N11", "playing", "over", "stalled"),
    *("", ",", "/", ":", " "),
]
PARTS = st.one_of(
    st.sampled_from(POSITION_WORDS),
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.text(alphabet="WUGRK*0123456789-,:/ L?N", max_size=6),
)
EDITS = st.tuples(st.integers(0, 2), st.integers(0, 500), PARTS)
_SPLIT = re.compile(r"([ /:,])")


def garble(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with parts (between separators) replaced, copied or cut."""
    for kind, at, part in edits:
        parts = _SPLIT.split(text)
        i = at % len(parts)
        if kind == 0:
            parts[i] = part
        elif kind == 1:
            parts.insert(i, parts[(at * 7) % len(parts)])
        else:
            del parts[i]
        text = "".join(parts)
    return text


@settings(max_examples=examples(400), deadline=None)
@given(
    base=st.sampled_from(POSITIONS),
    edits=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 500), PARTS), min_size=1, max_size=3
    ),
    choices=st.lists(st.integers(0, 10_000), max_size=6),
)
@example(base=POSITIONS[0], edits=[(0, 0, "W64U4G4R4K4*5")], choices=[0, 0])
@example(base=POSITIONS[3], edits=[(0, 2, "W44")], choices=[1])
@example(base=POSITIONS[0], edits=[(0, 30, "9" * 5000)], choices=[])
def test_a_garbled_position_is_refused_naming_its_field_or_plays_on(
    base: str, edits: list[tuple[int, int, str]], choices: list[int]
) -> None:
    text = garble(base, edits)
    try:
        game = Game.from_text(text)
    except RecordError as err:
        assert err.code is ErrorCode.MALFORMED_RECORD
        assert err.path.startswith("position"), err.path
        assert err.message.startswith("position") and len(err.message) < 400, err.message
        return
    assert Game.from_text(game.text()).position() == game.position()
    # The engine plays on from it: whatever the text held, no error from inside.
    for choice in choices:
        if game.over or game.stalled:
            break
        moves = list(game.legal_moves())
        move = moves[choice % len(moves)]
        level = game.reveal_due(move)
        if level is not None:
            unseen = game.unseen(level)
            move = with_reveal(move, unseen[choice % len(unseen)].id if unseen else None)
        try:
            game.push(move)
        except CompanionError:
            continue  # a reveal the deck cannot give: refused, and the game is as it was
        game.standings()
        game.text()
