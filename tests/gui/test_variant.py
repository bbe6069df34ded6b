"""The table screen under other rules than the base game's: a reserve limit of 1 and a win
at 10 points, resumed from the journal and played to its end by taps, every figure shown
the game's (docs/rules.md, Variants)."""

from __future__ import annotations

from companion.ai.players import make
from companion.coach.play import play
from companion.engine.game import Game
from companion.engine.moves import Buy
from companion.engine.rules import BASE
from companion.journal.session import Session
from ui.dialogs import CardPicker
from ui.screens.table.players import PlayerPanel

from .driver import Driver
from .playing import pick_card

SHORT = BASE.variant(reserve_limit=1, winning_points=10)
SEED = 5  # its last three moves: Ada (holding her one reserved card) buys to 10 points,
# Ben buys, and the game is over; both buys are of face-up cards, each refilled.


def short_game() -> Game:
    game = play([make("medium", seed=SEED), make("easy", seed=SEED)], seed=SEED, rules=SHORT)
    assert game.over and [s.points for s in game.seats] == [10, 5]
    return game


def buy_face_up(d: Driver, move: Buy) -> None:
    """Tap the card, Buy, then declare the card turned face up in its place."""
    table = d.app.table_screen
    d.tap(next(v for row in table.rows for v in row if v.card and v.card.id == move.card))
    d.press("Buy", exact=True)
    assert move.reveal is not None
    picker = d.top()
    assert isinstance(picker, CardPicker), picker
    pick_card(d, move.reveal)  # the card (its colour first where the level does not fit)


def test_a_game_to_10_points_with_one_reserved_card_each_plays_to_its_end(
    driver: Driver,
) -> None:
    d = driver
    game = short_game()
    last = game.moves[-2:]
    assert all(isinstance(m, Buy) and m.reveal is not None for m in last)
    # The journal holds the game but its last two moves (a variant's game comes into the
    # app with its setup: the new-game screen lays out base games only).
    session = Session.start(d.app.store, game.setup)
    for move in game.moves[:-2]:
        session.play(move)
    d.restart()
    d.press("Resume")
    table = d.app.table_screen
    assert table.session is not None and table.session.game.rules is SHORT
    assert table.session.game.to_act == 0 and len(table.session.game.seat(0).reserved) == 1
    # One place for a reserved card on each player's panel: the rules' limit.
    panels = [p for p in d.walk() if isinstance(p, PlayerPanel) and p.full]
    assert panels
    for panel in panels:
        assert len(panel.reserved.children) == 1
    # A second reserve is refused with the rules' figure.
    d.tap(table.decks[0])
    assert "Ada already holds 1 reserved card: buy one before reserving again" in d.texts()
    d.press("Cancel")
    # Ada buys to 10 points: the final round, which the base game would not begin.
    buy_face_up(d, last[0])
    assert table.session.game.final_round
    assert "Final round: Ada has 10 points." in table.status.text + d.texts()
    buy_face_up(d, last[1])
    assert d.app.manager.current == "end"
    text = d.texts()
    assert "Final standings" in text and "1. Ada" in text
    assert d.app.end_screen.chart.goal == 10
    assert list(d.app.store.games()[0].winners) == ["Ada"]
