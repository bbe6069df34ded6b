"""The table in motion: the states a table of four meets in a game, reached through the
real app with simulated touches, one after the other, on the window's current size.

:func:`walk` puts the table in each state and hands it to a check (``look``): the
legibility faults of :mod:`.legible` and what covers what (:mod:`.covered`), or a
screenshot. The games are seeded simulations stored in the app's journal, so each state
is the same on every run:

- early: four players, eight moves in;
- late: Ada to act with ten tokens, three reserved cards and 11 points, Cleo 14 points,
  three reserved cards and a noble (seed 1, 112 moves);
- the final round (seed 9, 113 moves);
- the companion's seat to act (in the late game, the seat renamed "Companion" in the
  table's language, its longest form), thinking, then its move shown;
- a suggestion asked for a person's seat;
- then the players' overview over the final round, and off the table a finished game
  (seed 9): its end, its review, stepped through move by move, past games, statistics,
  settings, new game with four seats and the setup that follows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.coach.plan import Plan
from companion.engine.game import Game
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour
from companion.journal.declaring import NewGame
from companion.journal.store import GameState
from companion.records.record import Record, replay
from ui.dialogs import NoblePicker
from ui.i18n import tr

from .driver import Driver
from .playing import a_player, analysis_screen, reviewed, shown_move

EARLY = (9, 8)  # seed, moves
LATE = (1, 112)
FINAL = (9, 113)

Look = Callable[[str], None]


@dataclasses.dataclass
class Games:
    """The walk's games, stored once in the app's journal: their ids."""

    early: int
    late: int
    final: int
    companion: int
    suggest: int
    finished: int


def store(d: Driver) -> Games:
    def put(game: Game, plan: Plan | None = None, names: tuple[str, ...] = ()) -> int:
        setup = game.setup
        if names:
            setup = dataclasses.replace(setup, players=names)
        extra: dict[str, Any] = {} if plan is None else {"app": plan.app()}
        record = Record(setup, list(game.moves), extra)
        return d.app.store.import_record(record, GameState.of(replay(record).game))

    early = simulate(players=4, seed=EARLY[0], max_moves=EARLY[1])
    late = simulate(players=4, seed=LATE[0], max_moves=LATE[1])
    final = simulate(players=4, seed=FINAL[0], max_moves=FINAL[1])
    # The companion to act in the late game, its seat named as the new-game screen names
    # it; it thinks long enough to be seen thinking, however slow a frame of a large
    # window is on a busy machine (0.4 s was not, in the long run).
    names = list(late.names)
    names[late.to_act] = tr("Companion")
    levels = tuple("hard" if s == late.to_act else None for s in range(4))
    thinking = Plan(levels, seed=5, think=1.2)
    # A person's seat with suggestions on (the early game, another journal entry).
    suggesting = Plan((None,) * 4, seed=5, think=0.05, suggest=True)
    return Games(
        early=put(early),
        late=put(late),
        final=put(final),
        companion=put(late, thinking, tuple(names)),
        suggest=put(simulate(players=4, seed=EARLY[0], max_moves=EARLY[1] + 1), suggesting),
        finished=put(simulate(players=4, seed=FINAL[0])),
    )


def resume(d: Driver, gid: int) -> Any:
    d.app.resume(gid)
    d.frames(3)
    return d.app.table_screen


def dismiss(d: Driver) -> None:
    for view in d.modals():
        cancel = getattr(view, "cancel", None)
        if callable(cancel):
            cancel()  # a question of the turn: Cancel, nothing changes
        else:
            view.dismiss(animation=False)
    d.frames(2)


def open_piles(table: Any) -> list[Widget]:
    return [t for t in table.bank if not t.dimmed and t.colour != Colour.GOLD]


def walk(d: Driver, games: Games, look: Look) -> Iterator[str]:
    """Each state in turn (its name yielded after ``look`` saw it)."""
    table = resume(d, games.early)
    look("at rest, early")
    yield "at rest, early"
    piles = open_piles(table)
    d.tap(piles[0])
    look("one token tapped")
    d.tap(piles[1])
    look("two tokens tapped")
    d.tap(table.bank[Colour.GOLD])
    look("a refusal")
    table.taking.clear()
    d.frames(1)
    # A level-1 card: its picker has the most cards to show (each at once, or colour first).
    card = next(v for row in table.rows for v in row if v.card is not None and v.card.level == 1)
    d.tap(card)
    look("the card dialog")
    d.press(tr("Reserve"), exact=True)
    d.frames(2)
    look("a card turned up to declare")
    dismiss(d)
    yield "the early game's states"

    table = resume(d, games.late)
    look("at rest, late")
    piles = open_piles(table)
    for pile in piles[:3]:
        d.tap(pile)
    d.frames(2)
    look("tokens to give back")
    dismiss(d)
    game = table.game
    table.open_dialog(
        NoblePicker(
            tr("Which noble visits {name}?").format(name=game.names[game.to_act]),
            game.nobles[:2],
            lambda _: None,
            on_cancel=lambda: None,
        )
    )
    d.frames(2)
    look("a noble to choose")
    dismiss(d)
    yield "the late game's states"

    table = resume(d, games.companion)
    assert table.panel.thinking, "the companion answered before it was seen thinking"
    look("the companion thinking")
    shown_move(d)
    d.frames(2)
    look("the companion's move")
    if table.panel.why.parent is not None:  # why, one tap away where the title has no room
        d.tap(table.panel.why)
        d.frames(2)
        look("why the companion chose its move")
        dismiss(d)
    yield "the companion's states"

    table = resume(d, games.suggest)
    d.tap(table.buttons.suggest_button)
    for _ in range(400):
        if table.panel.move is not None and not table.panel.thinking:
            break
        if table.thinking is not None:
            table.thinking.wait(2)
        d.frames(1)
    d.frames(2)
    look("a suggestion")
    table.companion.close_suggestion()
    d.frames(1)

    table = resume(d, games.final)
    look("the final round")
    d.tap(a_player(table))
    d.frames(2)
    look("the players overview")
    dismiss(d)
    yield "the final round"

    yield from off_the_table(d, games, look)


def off_the_table(d: Driver, games: Games, look: Look) -> Iterator[str]:
    """The screens a game leads to, and those before one."""
    app = d.app
    app.show_past_game(games.finished)
    d.frames(3)
    look("the end")
    screen = analysis_screen(d)
    screen.playouts = 4  # a small budget: made once, then kept in the journal
    app.end_screen.analyse()
    reviewed(d, screen)
    look("the review")
    app.show_past_game(games.finished)
    d.frames(2)
    app.end_screen.review()
    review = app.manager.get_screen("review")
    review.go(len(review.moves) // 2)
    d.frames(2)
    look("a past game stepped through")
    app.show_history()
    d.frames(2)
    look("past games")
    app.history_screen.show_stats()
    d.frames(2)
    look("statistics")
    app.open_settings()
    d.frames(2)
    look("settings")
    app.close_settings()
    app.show_new_game()
    d.frames(2)
    newgame = app.new_game_screen
    newgame.names, newgame.levels, newgame.editing = ["", ""], [None, None], 0
    for name in ("Ada", "Ben", "Cleo", "Dev"):
        newgame.use_name(name)
    d.frames(2)
    look("new game")
    app.show_setup(NewGame(["Ada", "Ben", "Cleo", "Dev"]))
    d.frames(3)
    look("setup")
    dismiss(d)  # the picker the setup opens by itself
    look("setup, laid out by hand")
    app.show_start()
    d.frames(1)
    yield "off the table"


def top(d: Driver) -> Widget:
    """What the walk's checks look at: the open dialog, else the screen shown."""
    opened = [w for w in d.modals() if isinstance(w, ModalView)]
    return opened[0] if opened else d.app.manager.current_screen
