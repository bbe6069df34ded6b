"""What a whole game costs in taps at the table (issue 34, item 9).

    python -m ui.tapcount [--seed 5] [--level easy] [--language en]

A seeded two-player game against the companion, played through the real app headless
(SDL's offscreen driver where there is no display, at the kiosk's 800x480) with simulated
touches: from the start screen, a new game (a name typed, the companion's seat and
level), the table laid out, Start; then every move, the person's as ``ui/taps.py`` taps
it (the person plays as the companion's easy level would, seeded), the companion's made
on the table by a person (Done, and the card turned face up). It prints the taps by
what they were for: the set-up, each kind of move (its reveal, tokens given back and
noble included), the person's and the companion's moves, and taps a move.

The games go to a temporary folder: a person's data is never touched.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.arguments import command_line
from companion.i18n import _
from ui.launch import prepare_kivy

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from companion.engine.moves import Move

    from .application import CompanionApp

SIZE = "800x480"
PERSON = "ZOE"  # typed on the new-game screen's keyboard, a tap a letter
# What the person's seat plays: the companion's easy level, seeded (a game a person could
# play), and the cards the table deals.
PERSON_SEED = 3
DEAL_SEED = 11
LEVEL_TAPS = {"easy": 1, "medium": 2, "hard": 3, "expert": 4}  # on the second seat


@dataclass
class Tally:
    """Taps counted by what they were for."""

    setup: int = 0
    taps: Counter[tuple[str, str]] = field(default_factory=Counter)  # (who, kind): taps
    moves: Counter[tuple[str, str]] = field(default_factory=Counter)  # (who, kind): moves

    def per_move(self, who: str) -> float:
        moves = sum(n for (w, _), n in self.moves.items() if w == who)
        taps = sum(n for (w, _), n in self.taps.items() if w == who)
        return taps / moves if moves else 0.0

    def lines(self) -> list[str]:
        out = [f"set-up: {self.setup} taps"]
        for who in ("person", "companion"):
            kinds = sorted({k for w, k in self.moves if w == who})
            moves = sum(self.moves[(who, k)] for k in kinds)
            taps = sum(self.taps[(who, k)] for k in kinds)
            out.append(f"{who}: {moves} moves, {taps} taps, {self.per_move(who):.2f} a move")
            for kind in kinds:
                m, t = self.moves[(who, kind)], self.taps[(who, kind)]
                out.append(f"  {kind}: {m} moves, {t} taps, {t / m:.2f} a move")
        return out


def kind_of(move: Move, face_up: bool) -> str:
    """A move's kind as a person taps it."""
    from companion.engine.moves import Buy, Reserve, Take

    if isinstance(move, Take):
        return "take 2 of a colour" if max(move.gems) == 2 else f"take {move.gems.total} colours"
    if isinstance(move, Reserve):
        return "reserve from a deck" if move.deck is not None else "reserve a face-up card"
    if isinstance(move, Buy):
        return "buy a face-up card" if face_up else "buy a reserved card"
    return "pass"


def play(
    app: CompanionApp,
    tap: Callable[[Widget], None],
    frames: Callable[[int], None],
    seed: int = 5,
    level: str = "easy",
) -> Tally:
    """From the start screen: the game set up and played to its end, every tap counted."""
    from kivy.uix.button import Button

    from companion.ai import make
    from companion.engine.simulate import Dealer, random_setup

    from .i18n import tr
    from .taps import button, card_taps, layout_taps, move_taps

    tally = Tally()

    def taps(widgets: Iterable[Widget]) -> int:
        n = 0
        for widget in widgets:
            tap(widget)
            n += 1
        return n

    def press(text: str, exact: bool = True) -> None:
        tap(button(app, text) if exact else _starting(app, text))
        tally.setup += 1

    press(tr("New game"))
    press("1.", exact=False)  # the first seat's name
    for letter in PERSON:
        press(letter)
    whom = {tr("Person"), tr("easy"), tr("medium"), tr("hard"), tr("expert")}
    for _turn in range(LEVEL_TAPS[level]):  # the second seat: the companion, at its level
        seats = [b for b in _top(app).walk(restrict=True) if isinstance(b, Button)]
        tap([b for b in seats if b.text in whom][1])
        tally.setup += 1
    press(tr("Next: lay out the table"))
    setup = random_setup(random.Random(seed), ["a", "b"])
    frames(2)
    tally.setup += taps(layout_taps(app, list(setup.nobles), [list(r) for r in setup.market]))
    press(tr("Start the game"))
    table = app.table_screen
    game = table.game
    # A new game draws the companion's seed at random: fixed here, before its first turn
    # (the person plays first), so every run plays the same game.
    plan = dataclasses.replace(table.companion.plan, seed=seed)
    table.companion.play(plan)
    dealer = Dealer(game, random.Random(DEAL_SEED))
    person = make("easy", seed=PERSON_SEED)
    while not game.over:
        if len(game.moves) > 400:
            raise RuntimeError("the game did not end")
        frames(2)
        seat = game.to_act
        if plan.level(seat) is None:
            move = dealer.deal(person.choose(game))
            face_up = any(
                c is not None and c.id == getattr(move, "card", None)
                for r in game.market
                for c in r
            )
            kind = kind_of(move, face_up)
            n = taps(move_taps(app, move))
            who = "person"
        else:
            shown = _companion_move(app, frames)
            move = dealer.deal(shown)
            face_up = any(
                c is not None and c.id == getattr(shown, "card", None)
                for r in game.market
                for c in r
            )
            kind = kind_of(shown, face_up)
            tap(button(app, tr("Done")))
            n = 1
            if move.reveal is not None:
                frames(2)
                n += taps(card_taps(app, move.reveal))
            who = "companion"
        tally.taps[(who, kind)] += n
        tally.moves[(who, kind)] += 1
    return tally


def _top(app: CompanionApp) -> Any:
    from .taps import top

    return top(app)


def _starting(app: CompanionApp, text: str) -> Widget:
    from kivy.uix.button import Button

    from .taps import find

    found: Widget = find(app, Button, lambda b: b.text.startswith(text))
    return found


def _companion_move(app: CompanionApp, frames: Callable[[int], None]) -> Move:
    """Frames until the companion's move is on its panel (bounded, not timed)."""
    table = app.table_screen
    for _frame in range(2000):
        panel = table.panel
        if panel.move is not None and not panel.thinking:
            return panel.move
        if table.thinking is not None:
            table.thinking.wait(2)
        frames(1)
    raise RuntimeError("the companion's move never appeared")


def arguments(argv: list[str] | None) -> argparse.Namespace:
    with command_line(
        "python -m ui.tapcount",
        _(
            "Taps a whole game costs: a seeded two-player game against the companion, "
            "played through the app headless; the taps by what they were for."
        ),
    ) as parser:
        parser.add_argument("--seed", type=int, default=5, help=_("the table's seed"))
        parser.add_argument(
            "--level",
            choices=sorted(LEVEL_TAPS),
            default="easy",
            help=_("the companion's level"),
        )
        parser.add_argument("--language", default="en", help=_("the app's language"))
        return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    prepare_kivy(SIZE, fullscreen=False)
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    from .application import CompanionApp

    def frames(n: int) -> None:
        for _frame in range(n):
            EventLoop.idle()

    def tap(widget: Widget) -> None:
        if widget.disabled:
            raise RuntimeError(f"{widget} is disabled")
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        frames(1)
        touch.touch_up()
        frames(1)

    with tempfile.TemporaryDirectory(prefix="splendor-taps-") as data:
        app = CompanionApp(data_dir=data, language=args.language)
        app._run_prepare()
        frames(3)
        tally = play(app, tap, frames, seed=args.seed, level=args.level)
        app.dispatch("on_stop")
    print("\n".join(tally.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
