"""The JSON game record of ``docs/game-record.md``: a reader, a writer and replay.

>>> from companion.engine.simulate import simulate
>>> game = simulate(players=2, seed=1)
>>> text = write(Record.of(game))
>>> result = replay(read(text))
>>> result.valid, result.game.position() == game.position()
(True, True)
>>> read('{"format": "splendor-game-record", "version": 2}')
Traceback (most recent call last):
...
companion.errors.RecordError: version: this reader knows version 1, not 2
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine.cards import CARDS, LEVELS, NOBLES, card_id_problem
from ..engine.game import Game
from ..engine.moves import Buy, Move, Pass, Reserve, Take, action_name
from ..engine.rules import BASE, Rules
from ..engine.setup import Setup
from ..engine.tokens import Colour, Tokens
from ..errors import FileUnread, IllegalMove, RecordError, json_reason
from ..i18n import os_reason
from ..text import quoted

FORMAT = "splendor-game-record"
VERSION = 1
EXTRA_KEYS = ("started_at", "ended_at", "app", "annotations")
_TOP_KEYS = {"format", "version", "rules", "players", "setup", "moves", *EXTRA_KEYS}

# What a record's numbers and times may be: anything beyond is refused where it enters,
# so that no part of the program (the engine, a message, an export) meets it.
MOST_TOKENS = (*(max(BASE.gems_per_colour.values()),) * 5, BASE.gold)
"""The most tokens of each colour a table holds (7 of a gem with 4 players, 5 gold): no
count in a move can be more."""
LAST_SEAT = BASE.players[-1] - 1
"""The last seat of the largest table (seats count from 0)."""
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 12, 31, 23, 59, 59, tzinfo=UTC)
"""A record's times lie between these two, once in UTC: a day either side in any time
zone is still a date every part of the program can write (Python's end at the year 9999,
and a clock of a Pi that has not set its time starts at 1970)."""


@dataclass
class Record:
    """A game as declared at the table: its setup, its moves, and the writer's extras."""

    setup: Setup
    moves: list[Move] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game, **extra: Any) -> Record:
        return cls(game.setup, list(game.moves), dict(extra))

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def rules(self) -> Rules:
        """The rules the game is played by: its setup's (the document's ``rules``)."""
        return self.setup.rules


# ------------------------------------------------------------------ reading


def _fail(path: str, template: str, **params: Any) -> RecordError:
    return RecordError(path, template, move_shape=path.startswith("moves["), **params)


def _tokens(value: Any, path: str) -> Tokens:
    if not isinstance(value, dict):
        raise _fail(path, "a token map is an object like {example}", example='{"red": 2}')
    counts = [0] * 6
    for key, n in value.items():
        try:
            colour = Colour.from_key(key)
        except KeyError:
            raise _fail(
                path,
                '{key} is not a colour ("white", "blue", "green", "red", "black" or "gold")',
                key=quoted(key),
            ) from None
        most = MOST_TOKENS[colour]
        # bool is an int to Python, and 2.0 == 2: neither is a count in a record.
        if type(n) is not int or not 1 <= n <= most:
            raise _fail(
                f"{path}.{key}",
                "a count is a whole number from 1 to {most}, not {n}",
                most=most,
                n=quoted(n),
            )
        counts[colour] = n
    return Tokens._make(counts)


def _short(key: str) -> str:
    """A name from the file as a place in a message: as JSON escapes it (no line end, no
    control character), at most 32 characters."""
    text = json.dumps(key[:40], ensure_ascii=False)[1:-1]
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate
    return text if len(text) <= 32 else text[:31] + "…"


def _card_id(value: Any, path: str) -> str:
    if not isinstance(value, str) or value not in CARDS:
        template, params = card_id_problem(CARDS, value)
        raise _fail(path, template, **params)
    return value


def _noble_id(value: Any, path: str) -> str:
    if not isinstance(value, str) or value not in NOBLES:
        raise _fail(path, "{id} is not a noble id (N1 to N10)", id=quoted(value))
    return value


def _level(value: Any, path: str) -> int:
    if type(value) is not int or value not in LEVELS:
        raise _fail(path, "{level} is not a level (1, 2 or 3)", level=quoted(value))
    return value


_ACTION_FIELDS = {
    "take": {"gems"},
    "reserve": {"card", "deck"},
    "buy": {"card", "payment"},
    "pass": set(),
}
_COMMON_FIELDS = {"player", "action", "reveal", "returned", "noble"}


def read_move(data: Any, path: str = "move") -> Move:
    """One move from its JSON object; :class:`RecordError` names the place that is wrong."""
    if not isinstance(data, dict):
        raise _fail(path, "a move is an object with a player and an action")
    action = data.get("action")
    if not isinstance(action, str) or action not in _ACTION_FIELDS:
        raise _fail(
            f"{path}.action",
            '{action} is not an action ("take", "reserve", "buy" or "pass")',
            action=quoted(action),
        )
    for key in data:
        if key not in _COMMON_FIELDS and key not in _ACTION_FIELDS[action]:
            raise _fail(
                f"{path}.{_short(str(key))}",
                "a {action} has no field {key}",
                action=action,
                key=quoted(key),
            )
    player = data.get("player")
    if type(player) is not int or not 0 <= player <= LAST_SEAT:
        raise _fail(
            f"{path}.player",
            "the seat that plays is a number from 0 to {last}, not {p}",
            last=LAST_SEAT,
            p=quoted(player),
        )
    reveal = data.get("reveal")
    returned = data.get("returned")
    noble = data.get("noble")
    common: dict[str, Any] = {
        "player": player,
        "reveal": None if reveal is None else _card_id(reveal, f"{path}.reveal"),
        "returned": None if returned is None else _tokens(returned, f"{path}.returned"),
        "noble": None if noble is None else _noble_id(noble, f"{path}.noble"),
    }
    if common["returned"] is not None and not any(common["returned"]):
        common["returned"] = None
    if action == "take":
        if "gems" not in data:
            raise _fail(f"{path}.gems", 'a "take" names its "gems"')
        return Take(_tokens(data["gems"], f"{path}.gems"), **common)
    if action == "reserve":
        if data.get("card") is None and data.get("deck") is None:
            raise _fail(path, 'a "reserve" names a face-up "card" or a "deck"')
        card = None if data.get("card") is None else _card_id(data["card"], f"{path}.card")
        deck = None if data.get("deck") is None else _level(data["deck"], f"{path}.deck")
        return Reserve(card=card, deck=deck, **common)
    if action == "buy":
        if data.get("card") is None:
            raise _fail(f"{path}.card", 'a "buy" names its "card"')
        payment = data.get("payment")
        return Buy(
            _card_id(data["card"], f"{path}.card"),
            None if payment is None else _tokens(payment, f"{path}.payment"),
            **common,
        )
    return Pass(**common)


def read_document(doc: Any) -> Record:
    """A record from parsed JSON. Raises :class:`RecordError` naming the place."""
    if not isinstance(doc, dict):
        raise _fail("", "a game record is a JSON object")
    if doc.get("format") != FORMAT:
        raise _fail(
            "format",
            'this is not a Splendor game record ("format" must be {f})',
            f=json.dumps(FORMAT),
        )
    version = doc.get("version")
    if type(version) is not int or version != VERSION:
        raise _fail("version", "this reader knows version 1, not {v}", v=quoted(version))
    for key in doc:
        if key not in _TOP_KEYS:
            raise _fail(_short(key), "unknown key {key}", key=quoted(key))
    rules = Rules.read(doc["rules"]) if "rules" in doc else BASE
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _fail(
            "players",
            '"players" is a list of {low} to {high} names',
            low=rules.players[0],
            high=rules.players[-1],
        )
    setup = doc.get("setup")
    if not isinstance(setup, dict):
        raise _fail("setup", '"setup" is an object with "nobles" and "market"')
    for key in setup:
        if key not in ("nobles", "market"):
            raise _fail(f"setup.{_short(key)}", "unknown key {key}", key=quoted(key))
    nobles = setup.get("nobles")
    if not isinstance(nobles, list) or not all(isinstance(n, str) for n in nobles):
        raise _fail("setup.nobles", '"nobles" is a list of noble ids')
    market = setup.get("market")
    if not isinstance(market, dict) or sorted(market) != ["1", "2", "3"]:
        raise _fail("setup.market", '"market" is an object with the keys "1", "2" and "3"')
    rows = []
    for level in ("1", "2", "3"):
        row = market[level]
        if not isinstance(row, list) or not all(isinstance(c, str) for c in row):
            raise _fail(f"setup.market.{level}", "a level's face-up cards are a list of ids")
        rows.append(row)
    parsed_setup = Setup.of(players, nobles, rows, rules)
    moves = doc.get("moves", [])
    if not isinstance(moves, list):
        raise _fail("moves", '"moves" is a list')
    parsed_moves = [read_move(m, f"moves[{i}]") for i, m in enumerate(moves)]
    extra = {k: doc[k] for k in EXTRA_KEYS if k in doc}
    for key in ("started_at", "ended_at"):
        if key in extra and not _is_time(extra[key]):
            raise _fail(key, "a time is an ISO 8601 text like 2026-11-21T20:15:00Z")
    if "annotations" in extra and not isinstance(extra["annotations"], dict):
        raise _fail("annotations", '"annotations" is an object')
    return Record(parsed_setup, parsed_moves, extra)


def _is_time(value: Any) -> bool:
    """An ISO 8601 date and time (it names export files: nothing else may pass)."""
    if not isinstance(value, str) or not 10 <= len(value) <= 40 or not value[:4].isdigit():
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def moment(value: object) -> datetime | None:
    """A record's time in UTC (a time with no zone is taken as UTC), or ``None`` when it is
    not a time between :data:`EARLIEST` and :data:`LATEST`. Whatever the journal holds
    (an older companion let any date in), this never fails: what writes a date goes
    through it, and leaves out a date it cannot write rather than the game.

    >>> moment("2026-11-21T21:15:00+01:00")
    datetime.datetime(2026, 11, 21, 20, 15, tzinfo=datetime.timezone.utc)
    >>> moment("9999-12-31T23:59:59-14:00") is None, moment("yesterday") is None
    (True, True)
    """
    if not _is_time(value):
        return None
    assert isinstance(value, str)
    try:
        parsed = datetime.fromisoformat(value)
        at = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        return None  # beyond the year 9999 once in UTC
    return at if EARLIEST <= at <= LATEST else None


def check_times(record: Record) -> None:
    """Refuse a record whose times are beyond what the program writes (see :data:`EARLIEST`).

    It is checked where a record comes in from outside (:func:`read`), not when the
    journal is read back: a game stored by an older companion stays readable, and its
    exports leave such a date out.
    """
    for key in ("started_at", "ended_at"):
        if key in record.extra and moment(record.extra[key]) is None:
            raise _fail(
                key,
                "a time between {earliest} and {latest} (UTC) is expected, not {value}",
                earliest="1970-01-01T00:00:00Z",
                latest="9000-12-31T23:59:59Z",
                value=quoted(record.extra[key]),
            )


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a name appears twice in it (json would keep the last
    silently: what the writer meant is not known)."""
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise _fail(
                "", "the name {key} appears twice in one object: keep only one", key=quoted(key)
            )
        doc[key] = value
    return doc


def _constant(name: str) -> float:
    """NaN and Infinity: Python's json reads them, the standard does not have them."""
    raise _fail("", "{value} is not a JSON number: write a number or null", value=name)


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400: beyond any float, read as infinity
        raise _fail("", "{value} is not a JSON number: write a number or null", value=quoted(text))
    return value


CSV_HEADER = "move,round,player,"
"""How the CSV export starts (after its byte-order mark): such a file is named as what
it is when given where a record is wanted."""

TEXT_EXPORT = "Splendor"
"""How the text export starts, in every language (its title: "Splendor: Ada, Ben")."""

BGSTATS_SOURCE = "Splendor Companion"
"""The ``sourceName`` of the BG Stats export: such a JSON file is named as what it is."""

BOM = "\ufeff"
"""The byte-order mark the CSV export writes first (for spreadsheets); a record that
starts with one is read all the same."""


def read(text: str) -> Record:
    """A record from JSON text. Raises :class:`RecordError` (never a traceback of json).

    Stricter than json: a name twice in one object, ``NaN``, ``Infinity`` and numbers
    beyond a float are refused, and the times are checked (:func:`check_times`).
    """
    text = text.removeprefix(BOM)
    try:
        doc = json.loads(
            text, object_pairs_hook=_object, parse_constant=_constant, parse_float=_float
        )
    except json.JSONDecodeError as err:
        if text.startswith(CSV_HEADER):
            raise _fail(
                "",
                "it is the CSV export of a game (a table for spreadsheets): import and replay "
                "take the game record, the export's .json file",
            ) from None
        if text.startswith(TEXT_EXPORT):
            raise _fail(
                "",
                "it is the text export of a game (for people to read): import and replay "
                "take the game record, the export's .json file",
            ) from None
        raise _fail(
            "",
            "not JSON: {reason} at line {line}, column {col}",
            reason=json_reason(err.msg),
            line=err.lineno,
            col=err.colno,
        ) from None
    except RecursionError:
        raise _fail("", "its JSON is nested too deeply for a game record") from None
    except ValueError:
        # Python refuses integers of more than 4,300 digits (a guard against slow parsing).
        raise _fail("", "it holds a number of more than 4,300 digits") from None
    if isinstance(doc, dict) and doc.get("sourceName") == BGSTATS_SOURCE:
        raise _fail(
            "",
            "it is the BG Stats export of a game (a play for the BG Stats app): import and "
            "replay take the game record, the export's .json file without .bgstats",
        )
    try:
        record = read_document(doc)
    except RecursionError:
        raise _fail("", "its JSON is nested too deeply for a game record") from None
    check_times(record)
    return record


MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Far above any real game (a long 4-player game with its journal is under 100 kB), far
below what would exhaust a Pi's memory."""


def load(path: str | Path) -> Record:
    """A record from a regular file of at most :data:`MAX_RECORD_BYTES`. Anything else
    (a device such as ``/dev/zero``, a FIFO, a folder, a file too big, undecodable text)
    raises :class:`RecordError` without reading it to the end, or waiting for a writer."""
    try:
        # Non-blocking: opening a FIFO with no writer must not wait for one.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise FileUnread(
            "", "{file} does not exist: check its name and folder", file=str(path)
        ) from None
    except OSError as err:
        raise FileUnread(
            "", "cannot read {file}: {reason}", file=str(path), reason=os_reason(err)
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileUnread(
                "", "{file} is not a regular file: give the path of a game record", file=str(path)
            )
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise FileUnread(
            "", "cannot read {file}: {reason}", file=str(path), reason=err.strerror or str(err)
        ) from None
    finally:
        os.close(fd)
    if len(raw) > MAX_RECORD_BYTES:
        raise FileUnread(
            "",
            "{file} is larger than {limit} MB: it is not a game record",
            file=str(path),
            limit=MAX_RECORD_BYTES // (1024 * 1024),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _fail("", "{file} is not a text file", file=str(path)) from None
    return read(text)


# ------------------------------------------------------------------ writing


def move_document(move: Move) -> dict[str, Any]:
    """A move as the record's JSON object."""
    doc: dict[str, Any] = {"player": move.player, "action": action_name(move)}
    if isinstance(move, Take):
        doc["gems"] = move.gems.to_map()
    elif isinstance(move, Reserve):
        if move.card is not None:
            doc["card"] = move.card
        if move.deck is not None:
            doc["deck"] = move.deck
    elif isinstance(move, Buy):
        doc["card"] = move.card
        if move.payment is not None:
            doc["payment"] = move.payment.to_map()
    if move.reveal is not None:
        doc["reveal"] = move.reveal
    if move.returned is not None and any(move.returned):
        doc["returned"] = move.returned.to_map()
    if move.noble is not None:
        doc["noble"] = move.noble
    return doc


def fingerprint(record: Record) -> str:
    """What a review is of: the setup and the moves (not the names' spelling nor the
    extras), so a stored review is known to be stale once a move is undone."""
    setup: Setup = record.setup
    text = json.dumps(
        [len(setup.players), setup.nobles, setup.market, [move_document(m) for m in record.moves]],
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def document(record: Record) -> dict[str, Any]:
    setup = record.setup
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    rules = setup.rules.document()
    if rules:  # the base game's record has none, as before there were variants
        doc["rules"] = rules
    doc |= {
        "players": list(setup.players),
        "setup": {
            "nobles": list(setup.nobles),
            "market": {str(lv): list(row) for lv, row in zip(LEVELS, setup.market, strict=True)},
        },
    }
    doc.update({k: record.extra[k] for k in EXTRA_KEYS if k in record.extra})
    doc["moves"] = [move_document(m) for m in record.moves]
    return doc


def _json(value: Any) -> str:
    # allow_nan=False: NaN and Infinity are not JSON; a record never holds them.
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def write(record: Record) -> str:
    """The record as JSON text: a key per line and a move per line, so that a diff reads well."""
    doc = document(record)
    moves = doc.pop("moves")
    parts = [f"  {json.dumps(k)}: {_json(v)}" for k, v in doc.items()]
    lines = ",\n".join("    " + _json(m) for m in moves)
    parts.append(f'  "moves": [\n{lines}\n  ]' if moves else '  "moves": []')
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ------------------------------------------------------------------ replay


@dataclass
class Replay:
    """What replaying a record gave: the game as far as it is legal, and the first error."""

    game: Game
    error: IllegalMove | None = None
    error_move: int = 0  # 1-based, 0 when every move is legal

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def moves_applied(self) -> int:
        return len(self.game.moves)


def replay(record: Record, on_move: Callable[[Game, Move], None] | None = None) -> Replay:
    """Apply the record's moves in order under its rules, stopping at the first illegal one."""
    game = Game(record.setup)
    for number, move in enumerate(record.moves, start=1):
        try:
            game.push(move)
        except IllegalMove as err:
            return Replay(game, err, number)
        if on_move is not None:
            on_move(game, move)
    return Replay(game)


def summary(result: Replay) -> dict[str, Any]:
    """The ``replay --json`` object of the spec for a replayed record."""
    game = result.game
    error = None
    if result.error is not None:
        error = {
            "move": result.error_move,
            "code": result.error.code.value,
            "message": result.error.message,
        }
    return {
        "valid": result.valid,
        "moves_applied": result.moves_applied,
        "error": error,
        "game_over": game.over,
        "standings": [
            {
                "seat": s.seat,
                "player": s.player,
                "points": s.points,
                "cards": s.cards,
                "nobles": list(s.nobles),
                "rank": s.rank,
            }
            for s in game.standings()
        ],
        "winners": game.winners(),
    }


def malformed_summary(error: RecordError) -> dict[str, Any]:
    """The ``replay --json`` object for a file that is not a valid record."""
    return {
        "valid": False,
        "moves_applied": 0,
        "error": {"move": 0, "code": error.code.value, "message": error.message},
        "game_over": False,
        "standings": [],
        "winners": [],
    }
