"""Helpers for the rules tests: hand-built positions and legal / illegal move checks.

The engine's state is a pure function of a starting position and the moves played. Most
tests reach their position through real moves; when that would take too long,
:func:`position` writes the position's one-line text form (``companion.engine.position``) and
builds the game with :meth:`Game.from_text`, with deck sizes consistent with the cards on
the table and in the players' hands.

>>> game = position(Hand(tokens="RRK*", cards="1W5 1W6"), Hand(), bank=Tokens(gold=5))
>>> game.seat(0).bonuses, game.seat(0).tokens.total, game.deck_size(1)
((2, 0, 0, 0, 0), 4, 34)
>>> game.text().split()[:2]
['*5', 'R2K*:1W5,1W6:-:-:0/-:-:-:-:0']
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import signal
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, ModuleType

import pytest

from companion import (
    CARDS,
    CARDS_BY_LEVEL,
    LEVELS,
    NOBLES,
    Colour,
    ErrorCode,
    Game,
    IllegalMove,
    Move,
    Setup,
    Tokens,
    starting_bank,
)
from companion.cli import main
from companion.engine.moves import with_parts
from companion.engine.position import Position

NAMES = ("Ada", "Ben", "Cleo", "Dan")
MARKET = ("1W1 1U1 1G1 1R1", "2W1 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")
"""The default face-up cards: the first white, blue, green and red card of each level."""

EMPTY = "-"
"""In a market row given to :func:`position`, an empty slot (A6)."""


def new_game(
    players: int = 2, nobles: Sequence[str] | None = None, market: Sequence[str] = MARKET
) -> Game:
    """A fresh game of ``players`` (Ada, Ben, ...) with nobles N1.. unless given."""
    if nobles is None:
        nobles = [f"N{i}" for i in range(1, players + 2)]
    return Game(Setup.of(NAMES[:players], nobles, market))


def play(game: Game, *moves: str) -> Game:
    """Push moves in text form, each for the player to act; returns the game."""
    for text in moves:
        game.push(text)
    return game


@dataclass(frozen=True)
class Hand:
    """One seat of a hand-built position.

    ``tokens`` in letters (``"RRK*"``); ``cards`` (purchased), ``reserved`` and ``nobles``
    as space-separated ids, ``L1?`` in ``reserved`` for a blind-reserved card of level 1
    whose identity is unknown. Bonuses come from ``cards``; ``points`` defaults to the
    points of the cards and nobles held.
    """

    tokens: str = ""
    cards: str = ""
    reserved: str = ""
    nobles: str = ""
    points: int | None = None

    def text(self) -> str:
        """This seat in the position's text form."""
        points = self.points
        if points is None:
            points = sum(CARDS[c].points for c in self.cards.split())
            points += sum(NOBLES[x].points for x in self.nobles.split())
        parts = [_tokens(Tokens.parse(self.tokens)), self.cards, self.reserved, self.nobles]
        return ":".join([*(",".join(p.split()) or "-" for p in parts), str(points)])


def _tokens(tokens: Tokens) -> str:
    """Tokens as the text form writes them: each colour letter, then its count above 1."""
    return "".join(
        f"{c.letter}{n if n > 1 else ''}" for c, n in zip(Colour, tokens, strict=True) if n
    )


def position(
    *seats: Hand,
    bank: Tokens | None = None,
    market: Sequence[str] = MARKET,
    nobles: str | None = None,
    decks: tuple[int, int, int] | None = None,
    to_act: int = 0,
) -> Game:
    """A game of ``len(seats)`` players (2 if none given) starting at a position.

    ``bank`` defaults to the starting bank; ``market`` rows may hold ``-`` for an empty slot;
    ``nobles`` are the ones on the table (default: N1.. minus those held); ``decks`` default
    to what is left of each level once the cards on the table and in hands are counted.
    """
    hands = list(seats) or [Hand(), Hand()]
    n = len(hands)
    held = {noble for hand in hands for noble in hand.nobles.split()}
    if nobles is None:
        nobles = " ".join([f"N{i}" for i in range(1, 11) if f"N{i}" not in held][: n + 1])
    words = [w for row in market for w in row.split()]
    words += [w for hand in hands for w in (hand.cards + " " + hand.reserved).split()]
    known = [w for w in words if w in CARDS]
    assert len(set(known)) == len(known), "a card is in two places"
    if decks is None:
        counts = [len(CARDS_BY_LEVEL[level]) for level in LEVELS]
        for w in words:
            if w != EMPTY:
                counts[int(w[1] if w.startswith("L") else w[0]) - 1] -= 1
        decks = (counts[0], counts[1], counts[2])
    fields = [
        _tokens(bank if bank is not None else starting_bank(n)) or "-",
        "/".join(hand.text() for hand in hands),
        "/".join(",".join(row.split()) for row in market),
        ",".join(map(str, decks)),
        ",".join(nobles.split()) or "-",
        str(to_act),
        "0",
        "1",
        "playing",
    ]
    text = " ".join(fields)
    game = Game.from_text(text, names=NAMES[:n])
    assert Position.parse(game.text()) == game.position()
    return game


# ------------------------------------------------------------------ move checks


def as_move(game: Game, move: Move | str) -> Move:
    return game.parse(move) if isinstance(move, str) else move


def listed(game: Game) -> set[str]:
    """The text of every move ``legal_moves()`` lists (they carry no ``reveal``)."""
    return {str(m) for m in game.legal_moves()}


def as_listed(move: Move) -> Move:
    """How ``legal_moves()`` lists ``move``: without the ``reveal`` the table declares, and
    a buy with the default payment."""
    move = with_parts(move, reveal=None)
    if getattr(move, "payment", None) is not None:
        move = with_parts(move, payment=None)
    return move


def assert_legal(game: Game, move: Move | str, *, push: bool = True) -> Move:
    """``move`` is legal, listed by ``legal_moves()`` (reveal and payment aside) and, unless
    ``push`` is false, pushed."""
    move = as_move(game, move)
    assert game.explain(move) is None, f"{move} should be legal: {game.explain(move)}"
    assert game.is_legal(move)
    assert as_listed(move) in list(game.legal_moves()), f"{move} is legal but not listed"
    if push:
        game.push(move)
    return move


def assert_illegal(
    game: Game, move: Move | str, code: ErrorCode, *, unlisted: bool = True
) -> IllegalMove:
    """``move`` is refused with ``code``, by ``explain`` and by ``push``; the refused push
    changes nothing; and ``legal_moves()`` does not list it (reveal aside: a move refused
    for its reveal alone, or with ``unlisted`` false, may well be listed)."""
    move = as_move(game, move)
    before = game.position()
    played = game.moves
    err = game.explain(move)
    assert err is not None, f"{move} should be illegal ({code})"
    assert err.code == code, f"{move}: expected {code}, got {err.code} ({err})"
    assert not game.is_legal(move)
    with pytest.raises(IllegalMove) as info:
        game.push(move)
    assert info.value.code == code
    assert game.position() == before
    assert game.moves == played
    if unlisted and code not in (ErrorCode.REVEAL_MISSING, ErrorCode.REVEAL_INVALID):
        shown = with_parts(move, reveal=None)
        assert shown not in list(game.legal_moves()), f"{move} is illegal but listed"
    return info.value


def assert_listed_moves_legal(game: Game) -> None:
    """Every move ``legal_moves()`` lists is legal once the table declares its reveal."""
    for move in game.legal_moves():
        level = game.reveal_due(move)
        if level is not None:
            move = with_parts(move, reveal=game.unseen(level)[0].id)
        assert game.explain(move) is None, f"listed {move} is illegal: {game.explain(move)}"


@contextlib.contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """A hang becomes a failure (not a timing: a run that never ends)."""

    def hung(signum: int, frame: FrameType | None) -> None:
        raise AssertionError(f"no answer after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(argv: list[str]) -> tuple[int, str]:
    """The command line run in this process, with an alarm against a hang: its exit status
    and what it wrote to stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), alarm(30):
        code = main(argv)
    return code, err.getvalue()


def help_text(argv: list[str]) -> str:
    """What the command line's ``--help`` prints for ``argv`` (argparse exits after it)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    return out.getvalue()


def tool(name: str) -> ModuleType:
    """``tools/NAME.py`` imported as a module (the tools are scripts, not a package)."""
    path = Path(__file__).resolve().parent.parent / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module
