"""What a page shows, as plain data: the same dictionaries fill the HTML templates and
the JSON API (``/api/v1/...``), so neither can show more than the other.

What the table does not show never leaves here: a card reserved blind from a deck is
``{"level": 2, "hidden": true}`` until it is bought (its id, even when the journal knows
it, is not written); no path, setting or file name is part of any view. Names are made
printable (:func:`companion.text.printable`): control and bidirectional characters from
an old journal or an imported record are dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from companion import i18n
from companion.engine.cards import Card, Noble
from companion.engine.game import Game, Hidden
from companion.engine.moves import Reserve
from companion.engine.tokens import GEMS, Colour, Tokens
from companion.i18n import ngettext, number, percent
from companion.i18n import translate as _
from companion.journal.seats import companion_levels, level_word
from companion.journal.store import GameInfo
from companion.records.movelog import move_log
from companion.records.playtime import clock_text, move_times
from companion.records.record import Record, moment
from companion.records.timeline import points_by_round
from companion.reports.export import verdict
from companion.reports.stats import CompanionLevel, HeadToHead, PlayedGame, PlayerStats, level_words
from companion.text import printable

API_VERSION = 1
View = dict[str, Any]


@contextmanager
def language(code: str) -> Iterator[None]:
    """Every message inside the block in ``code``: a page is rendered in one go, with no
    ``await`` inside, so one request's language never leaks into another's."""
    saved = i18n._current
    i18n.set_language(code)
    try:
        yield
    finally:
        i18n._current = saved


def name(text: str) -> str:
    """A player's name as a page shows it: printable, one line."""
    return printable(text) or "?"


def tokens(t: Tokens) -> dict[str, int]:
    return {c.key: t[c] for c in Colour}


def gems(values: tuple[int, ...]) -> dict[str, int]:
    return {c.key: n for c, n in zip(GEMS, values, strict=False)}


def card(c: Card) -> View:
    return {
        "id": c.id,
        "level": c.level,
        "bonus": c.bonus.key,
        "letter": c.bonus.letter,  # the record's letter, as the kiosk's cards carry it
        "points": c.points,
        "cost": {g.key: n for g, n in zip(GEMS, c.cost, strict=True) if n},
    }


def hidden(level: int) -> View:
    """A card reserved face down: only its level, as its back shows."""
    return {"level": level, "hidden": True}


def noble(n: Noble) -> View:
    return {
        "id": n.id,
        "points": n.points,
        "requires": {g.key: k for g, k in zip(GEMS, n.requires, strict=True) if k},
    }


def _public_reserves(moves: tuple[Any, ...] | list[Any]) -> set[str]:
    """The ids of the cards reserved face up: every other reserved card went to its
    player face down."""
    return {m.card for m in moves if isinstance(m, Reserve) and m.deck is None and m.card}


def _reserved(held: tuple[Card | Hidden, ...], public: set[str]) -> list[View]:
    return [card(c) if isinstance(c, Card) and c.id in public else hidden(c.level) for c in held]


def game_at(record: Record, upto: int | None = None) -> tuple[Game, Record]:
    """The game after its first ``upto`` moves (all when ``None``) and that record."""
    moves = record.moves if upto is None else record.moves[: max(0, upto)]
    part = Record(record.setup, list(moves), record.extra)
    game = Game(record.setup)
    for move in moves:
        game.push(move)
    return game, part


def _log(part: Record) -> list[View]:
    entries = []
    for entry in move_log(part):
        time = entry.time
        entries.append(
            {
                "number": entry.number,
                "round": entry.round,
                "seat": entry.seat,
                "player": name(entry.player),
                "words": printable(entry.words),
                "points_after": entry.points_after,
                "at": time.at.strftime("%Y-%m-%dT%H:%M:%SZ") if time else None,
                "turn_seconds": int(time.turn.total_seconds()) if time else None,
                "elapsed_seconds": int(time.elapsed.total_seconds()) if time else None,
                "clock": clock_text(time.elapsed) if time else None,
                "turn": clock_text(time.turn) if time else None,
            }
        )
    return entries


def table(record: Record, game_id: int, upto: int | None = None) -> View:
    """The table after ``upto`` moves (the whole game when ``None``), as the kiosk shows
    it: the bank, the market, the nobles, every player, the move log, the standings."""
    game, part = game_at(record, upto)
    public = _public_reserves(game.moves)
    levels = companion_levels(record.extra, len(game.names))
    over = game.over
    players = []
    for seat in game.seats:
        level = levels[seat.seat]
        players.append(
            {
                "seat": seat.seat,
                "name": name(seat.name),
                "companion": level,
                "companion_words": level_word(level) if level else None,
                "points": seat.points,
                "tokens": tokens(seat.tokens),
                "token_count": sum(seat.tokens),
                "bonuses": gems(seat.bonuses),
                "cards": len(seat.cards),
                "reserved": _reserved(seat.reserved, public),
                "nobles": [noble(n) for n in seat.nobles],
                "to_act": not over and seat.seat == game.to_act,
            }
        )
    market = [
        {
            "level": level,
            "deck": game.deck_size(level),
            "cards": [None if c is None else card(c) for c in game.market[level - 1]],
        }
        for level in (3, 2, 1)
    ]
    times = move_times(part)
    played = times[max(times)].elapsed if times else None
    standings = [
        {
            "rank": s.rank,
            "player": name(s.player),
            "seat": s.seat,
            "points": s.points,
            "cards": s.cards,
            "nobles": len(s.nobles),
        }
        for s in game.standings()
    ]
    return {
        "api": API_VERSION,
        "game": game_id,
        "move": len(game.moves),
        "moves": len(record.moves),
        "round": game.round,
        "state": game.status.value,
        "over": over,
        "final_round": game.final_round,
        "winning_points": game.rules.winning_points,
        "token_limit": game.rules.token_limit,
        "to_act": None if over else game.to_act,
        "bank": tokens(game.bank),
        "nobles": [noble(n) for n in game.nobles],
        "market": market,
        "players": players,
        "standings": standings,
        "verdict": [printable(line) for line in verdict(game)],
        "played_seconds": int(played.total_seconds()) if played is not None else None,
        "played": clock_text(played) if played is not None else None,
        "log": _log(part),
    }


def when(value: str | None) -> str:
    """A journal time (UTC) as the kiosk's local date and time, written the page's
    language's way by Babel: "Nov 21, 2026, 9:15 PM", "21 nov. 2026, 21:15". The server
    runs on the kiosk, so its local time is the table's. Text that is not a time is shown
    as it is (an older journal's), and no time is an empty string.

    >>> with language("fr"):
    ...     when("2026-11-21T12:00:00Z").startswith("21 nov. 2026")  # any zone but the far ones
    True
    """
    at = moment(value)
    if at is None:
        return value or ""
    from babel import Locale  # late: only the pages that show a time need it
    from babel.dates import format_date, format_time

    try:
        local = at.astimezone()
    except (OverflowError, OSError, ValueError):  # a clock that cannot turn it local
        return value or ""
    code = i18n.language()
    pattern = Locale.parse(code).datetime_formats["medium"].replace("'", "")
    day = format_date(local, "medium", locale=code)
    hour = format_time(local, "short", locale=code)
    return str(pattern).replace("{1}", day).replace("{0}", hour)


def game_line(info: GameInfo) -> View:
    """A line of the games list."""
    return {
        "id": info.id,
        "started_at": info.started_at,
        "ended_at": info.ended_at,
        "players": [name(p) for p in info.players],
        "winners": [name(p) for p in info.winners],
        "state": info.state if info.problem is None else "damaged",
        "moves": info.moves,
    }


def chart(record: Record) -> View:
    """Each player's points at the end of each round, for the SVG chart."""
    rounds = points_by_round(record)
    top = max((p for r in rounds for p in r), default=0)
    goal = record.rules.winning_points
    return {
        "rounds": rounds,
        "top": max(goal, top),
        "goal": goal,
        "players": [name(p) for p in record.players],
    }


def chart_svg(data: View, width: int = 360, height: int = 220) -> View:
    """The chart's geometry: one polyline per seat, numbered at its end, in SVG units."""
    rounds: list[list[int]] = data["rounds"]
    left, right, top_pad, bottom = (
        34,
        44,
        12,
        34,
    )  # the round numbers and "rounds" under them, 13 units each
    span_x = max(1, len(rounds) - 1)
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    top: int = data["top"]

    def x(i: int) -> float:
        return round(left + plot_w * i / span_x, 1)

    def y(points: int) -> float:
        return round(top_pad + plot_h * (1 - points / top), 1)

    lines: list[View] = []
    for seat in range(len(data["players"])):
        pts = [(x(i), y(r[seat])) for i, r in enumerate(rounds)]
        if not pts:
            continue
        lines.append(
            {
                "seat": seat,
                "points": " ".join(f"{a},{b}" for a, b in pts),
                "end": pts[-1],
                "score": rounds[-1][seat],
            }
        )
    # Each line's numbered marker at its end, moved right of one it would cover (two
    # players on the same score), as the kiosk's chart spaces them.
    placed: list[tuple[float, float]] = []
    for line in sorted(lines, key=lambda item: item["end"][1]):
        ex, ey = float(line["end"][0]), float(line["end"][1])
        while any(abs(ex - px) < 17 and abs(ey - py) < 17 for px, py in placed):
            ex += 17
        placed.append((ex, ey))
        line["marker"] = (round(ex, 1), ey)
    ticks = [{"value": v, "y": y(v)} for v in range(0, top + 1, 5)]
    xticks = [
        {"value": i + 1, "x": x(i)}
        for i in range(len(rounds))
        if len(rounds) <= 12 or (i + 1) % 5 == 0 or i == 0
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top_pad,
        "bottom": height - bottom,
        "lines": lines,
        "ticks": ticks,
        "xticks": xticks,
        "goal": y(data["goal"]),
    }


def _average(singular: str, plural: str, value: float) -> str:
    n = int(value) if float(value).is_integer() else 2
    return ngettext(singular, plural, n).format(n=number(value, 1))


def player_line(s: PlayerStats) -> View:
    return {
        "name": name(s.name),
        "games": s.games,
        "wins": s.wins,
        "win_rate": round(s.win_rate, 4),
        "win_rate_text": percent(s.win_rate),
        "average_points": round(s.average_points, 2),
        "average_points_text": number(s.average_points, 1),
        "average_rounds": round(s.average_rounds, 2),
        "average_rounds_text": number(s.average_rounds, 1),
        "favourite_bonus": s.favourite_bonus.key if s.favourite_bonus is not None else None,
        "fastest_win": None
        if s.fastest_win is None
        else {"game": s.fastest_win.id, "rounds": s.fastest_win.rounds},
    }


def level_line(level: CompanionLevel) -> View:
    return {
        "level": level.level,
        "level_words": level_word(level.level),
        "games": level.games,
        "people_wins": level.people_wins,
        "win_rate_text": percent(level.win_rate),
        "words": level_words(level),
        "players": [player_line(s) for s in level.players],
    }


def head_line(h: HeadToHead) -> View:
    return {
        "a": name(h.a),
        "b": name(h.b),
        "games": h.games,
        "a_ahead": h.a_ahead,
        "b_ahead": h.b_ahead,
        "level": h.level,
        "a_wins": h.a_wins,
        "b_wins": h.b_wins,
        "a_points": number(h.a_points, 1),
        "b_points": number(h.b_points, 1),
    }


def people(games: list[PlayedGame]) -> list[str]:
    """Every person of the games (not the companion's seats), for the head-to-head form."""
    found: set[str] = set()
    for g in games:
        found.update(p for seat, p in enumerate(g.players) if not g.is_companion(seat))
    return sorted(found, key=str.casefold)


def words() -> Callable[[str], str]:
    """The translation function templates call as ``_``."""
    return _
