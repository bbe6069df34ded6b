"""A whole game at the table, only through taps on the real app in a real window."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView

from companion.engine.game import Hidden
from companion.engine.moves import Buy, Reserve
from companion.engine.setup import Setup
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour, Tokens
from companion.i18n import localise
from companion.journal.session import Session
from companion.records.movelog import move_log
from ui.dialogs import CardPicker, NoblePicker, ReturnPicker
from ui.i18n import tr
from ui.screens.table.players import PlayerPanel
from ui.widgets.pieces import NobleView

from .driver import Driver, lay_out_table
from .playing import pick_card, play_through_taps


def new_game_through_taps(
    d: Driver, names: list[str], setup_nobles: list[str], market: list[list[str]]
) -> None:
    d.press("New game")
    for i, name in enumerate(names):
        if i >= 2:
            d.press("+ Add a player")
        else:
            d.press(f"{i + 1}.")
        for letter in name:
            d.press(letter.upper(), exact=True)
    d.press("Next")
    lay_out_table(d, setup_nobles, market)
    d.press("Start the game")
    assert d.app.manager.current == "table"


def test_whole_two_player_game_from_setup_to_standings_only_through_taps(driver: Driver) -> None:
    d = driver
    # A short game that needs every kind of step: blind reserves bought later (the card
    # picker declares them), tokens given back above 10, and a choice between nobles.
    game = simulate(players=2, seed=2)
    blind = [m.card for m in game.moves if isinstance(m, Reserve) and m.deck is not None]
    assert any(isinstance(m, Buy) and m.card in blind for m in game.moves)
    assert any(m.returned is not None for m in game.moves)
    assert any(m.noble is not None for m in game.moves)
    setup = game.setup
    new_game_through_taps(d, ["Ada", "Ben"], list(setup.nobles), [list(r) for r in setup.market])
    final_round_seen = False
    for number, move in enumerate(game.moves, start=1):
        # A blind reserve is an unknown card at a real table: the simulation knew it.
        tapped = move
        if isinstance(move, Reserve) and move.deck is not None:
            tapped = Reserve(
                deck=move.deck, player=move.player, returned=move.returned, noble=move.noble
            )
        play_through_taps(d, tapped)
        session = d.app.table_screen.session
        assert session is not None
        assert len(session.game.moves) == number, (number, str(move), d.texts()[-300:])
        if session.game.final_round:
            final_round_seen = True
            assert "Final round" in d.app.table_screen.status.text
    assert d.app.manager.current == "end"
    assert final_round_seen or game.seat(len(game.names) - 1).points >= 15
    text = d.texts()
    assert "Final standings" in text
    winner = game.winners()[0]
    assert f"1. {winner}" in text
    info = d.app.store.games()[0]
    assert info.state == "over"
    assert list(info.winners) == game.winners()


def test_illegal_take_is_refused_with_the_engine_reason(driver: Driver) -> None:
    d = driver
    d.app.start_game(simulate(players=2, seed=1, max_moves=0).setup)
    d.frames(2)
    table = d.app.table_screen
    position = table.session.game.position() if table.session else None
    d.tap(table.bank[Colour.RED])
    d.tap(table.bank[Colour.BLUE])
    d.tap(table.bank[Colour.BLUE])  # red + two blue: not a take
    assert "take 3 tokens of 3 different colours" in table.status.text.lower()
    assert table.session is not None
    assert table.session.game.position() == position
    d.tap(table.bank[Colour.GOLD])
    assert "gold cannot be taken" in table.status.text.lower()
    d.press("Clear")
    assert not any(table.selection)
    # A bounced double tap on one pile takes nothing: two of one colour wait for Take.
    d.tap(table.bank[Colour.GREEN])
    d.tap(table.bank[Colour.GREEN])
    assert table.session.game.position() == position
    assert "Two green tokens: tap Take to confirm" in table.status.text
    d.press("Take 2 green")
    assert str(table.session.game.moves[-1]) == "take GG"


# The GUI walk tools/pi-check runs on the Pi's processor (the whole game's walk took
# over 20 minutes there, drawn by Mesa's software renderer under emulation).
@pytest.mark.pi
def test_undo_is_one_tap_and_survives_a_restart(driver: Driver) -> None:
    d = driver
    game = simulate(players=2, seed=3, max_moves=6)
    d.app.start_game(game.setup)
    d.frames(2)
    for move in game.moves[:5]:
        play_through_taps(d, move)
    session = d.app.table_screen.session
    assert session is not None
    assert len(session.game.moves) == 5
    d.press("Undo")
    assert len(session.game.moves) == 4
    assert "Undone" in d.app.table_screen.status.text
    d.restart()
    d.press("Resume")
    resumed = d.app.table_screen.session
    assert resumed is not None
    assert list(resumed.game.moves) == list(game.moves[:4])
    d.press("Redo")
    assert list(resumed.game.moves) == list(game.moves[:5])


def test_buttons_fit_their_text(driver: Driver) -> None:
    d = driver
    d.app.start_game(simulate(players=4, seed=2, max_moves=0).setup)
    d.frames(2)
    for button in d.walk():
        if isinstance(button, Button) and button.text:
            button.texture_update()
            assert button.texture_size[0] <= button.width + 1, button.text


RESTART_CHILD = """
import os, sys
sys.path.insert(0, sys.argv[2])
import gui.conftest  # the headless window, as in the tests
from gui.driver import Driver
from gui.playing import play_through_taps
from companion.engine.simulate import simulate
from pathlib import Path

d = Driver(Path(sys.argv[1]))
game = simulate(players=3, seed=7, max_moves=7)
d.app.start_game(game.setup)
d.frames(2)
for move in game.moves:
    play_through_taps(d, move)
print("played", len(d.app.table_screen.session.game.moves), flush=True)
os.kill(os.getpid(), 9)  # the plug is pulled: no clean exit
"""


def test_resume_after_the_process_is_killed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = tmp_path / "child.py"
    script.write_text(RESTART_CHILD, encoding="utf-8")
    tests = Path(__file__).resolve().parents[1]
    child = subprocess.run(
        [sys.executable, str(script), str(data), str(tests)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "played 7" in child.stdout, child.stderr[-2000:]
    assert child.returncode == -9
    d = Driver(data)
    try:
        d.press("Resume")
        session = d.app.table_screen.session
        assert session is not None
        assert list(session.game.moves) == list(simulate(players=3, seed=7, max_moves=7).moves)
        assert d.app.manager.current == "table"
    finally:
        d.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_turn_dialogs_through_taps(language: str, tmp_path: Path) -> None:
    """A take of two confirmed, reserves from a deck, a buy paid with gold in place of a
    colour, and a blind-reserved card bought through the same buy dialog: by taps, in the
    table's language."""
    d = Driver(tmp_path / "data", language=language)
    try:
        _turn_dialogs(d)
    finally:
        d.close()


def white_table(d: Driver, names: list[str]) -> Session:
    """A game of ``names`` on the table, nobles N1 on and the first four white cards of each
    level face up; its session."""
    nobles = [f"N{i}" for i in range(1, len(names) + 2)]
    market = [f"{level}W1 {level}W2 {level}W3 {level}W4" for level in (1, 2, 3)]
    d.app.start_game(Setup.of(names, nobles, market))
    d.frames(2)
    session = d.app.table_screen.session
    assert session is not None
    return session


def _turn_dialogs(d: Driver) -> None:
    session = white_table(d, ["Ada", "Ben"])
    table = d.app.table_screen
    game = session.game

    # A take of two: the second tap on the pile asks for a confirm, the Take button plays it.
    d.tap(table.bank[Colour.RED])
    d.tap(table.bank[Colour.RED])
    assert not game.moves
    d.press(tr("Take {tokens}").split("{")[0].strip())
    assert str(game.moves[-1]) == "take RR"
    for _ in range(2):  # Ben, then Ada: the top card of the level 1 deck, unseen
        d.tap(table.decks[0])
        d.press(tr("Reserve"), exact=True)
    assert isinstance(game.seat(0).reserved[0], Hidden)
    for letters in ("WUG", "KUG", "WUK"):
        for letter in letters:
            d.tap(table.bank[Tokens.parse(letter).index(1)])
    assert len(game.moves) == 6
    assert game.seat(0).tokens == Tokens(blue=1, green=1, red=2, black=1, gold=1)

    # A face-up card: its cost said in words, one gold paid for one red, a reveal after.
    card = next(v for row in table.rows for v in row if v.card is not None and v.card.id == "1W1")
    d.tap(card)
    text = d.texts()
    assert "1W1" not in text  # the card is drawn and said in words, never by its id
    d.press(tr("Cancel"), exact=True)
    assert len(game.moves) == 6  # Cancel changes nothing
    d.tap(card)
    d.press(tr("gold for 1 {colour}").format(colour=localise(Colour.RED)))
    d.press(tr("Buy"), exact=True)
    pick_card(d, game.unseen(1)[0].id)
    bought = game.moves[-1]
    assert isinstance(bought, Buy) and bought.payment == Tokens(red=1, black=1, gold=1)

    # Ben's blind reserve: which card it is, then the same buy dialog (cost, payment).
    panel = d.find(PlayerPanel, lambda p: p.seat_index == 1)
    hidden = next(
        v for v in panel.reserved.children if isinstance(getattr(v, "card", None), Hidden)
    )
    d.tap(hidden)
    picker = d.top()
    assert isinstance(picker, CardPicker)
    assert table.turn is not None
    affordable = table.turn.affordable(game.unseen(1))
    assert affordable, "Ben can pay for some level 1 card"
    pick_card(d, affordable[0].id)
    assert tr("Buy") in [b.text for b in d.walk() if isinstance(b, Button)]
    d.press(tr("Buy"), exact=True)
    assert game.moves[-1] == Buy(affordable[0].id, player=1)
    assert not game.seat(1).reserved


def test_the_confirm_button_plays_the_take_of_two_chosen_on_screen(driver: Driver) -> None:
    d = driver
    d.app.start_game(simulate(players=2, seed=1, max_moves=0).setup)
    d.frames(2)
    table = d.app.table_screen
    d.tap(table.bank[Colour.BLUE])
    d.app.confirm_pressed()  # one blue is not a take: the button does nothing
    assert table.session is not None and not table.session.game.moves
    d.tap(table.bank[Colour.BLUE])
    d.app.confirm_pressed()  # the GPIO button and the screen share the core's selection
    assert str(table.session.game.moves[-1]) == "take UU"
    assert not any(table.selection)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_give_back_has_cancel_and_marks_tokens_minus_one(language: str, tmp_path: Path) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        session = white_table(d, ["Ada", "Ben", "Cleo", "Dan"])
        table = d.app.table_screen
        for take in ["take WUG", "take RKW", "take UGR"]:  # Ada to 9 tokens
            session.play(take)
            for _ in range(3):
                session.play("reserve L1")
        table.refresh()
        played = len(session.game.moves)
        for colour in (Colour.RED, Colour.BLACK, Colour.GREEN):
            d.tap(table.bank[colour])
        picker = d.top()
        assert isinstance(picker, ReturnPicker)
        d.tap(picker.tokens[Colour.RED])
        assert picker.tokens[Colour.RED].chosen == 1 and picker.tokens[Colour.RED].sign == "-"
        d.press(tr("Cancel"), exact=True)
        assert len(session.game.moves) == played  # nothing was played
        assert tr("Cancelled: nothing changed.") in table.status.text
        for colour in (Colour.RED, Colour.BLACK, Colour.GREEN):
            d.tap(table.bank[colour])
        picker = d.top()
        assert isinstance(picker, ReturnPicker)
        d.tap(picker.tokens[Colour.RED])
        d.tap(picker.tokens[Colour.GREEN])
        d.press(tr("Give back"), exact=True)
        assert session.game.moves[-1].returned == Tokens(red=1, green=1)
        assert session.game.seat(0).tokens.total == 10
    finally:
        d.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_status_line_says_each_move_as_the_move_log_does(tmp_path: Path, language: str) -> None:
    """One wording of a move: what the status line says after a turn, an undo or a redo is
    the move log's line for it, payments, gold and returns included, in the language."""
    d = Driver(tmp_path / "data", language=language)
    try:
        # Takes, reserves (one blind, with a return), buys paid partly with gold.
        game = simulate(players=2, seed=3, max_moves=14)
        d.app.start_game(game.setup)
        d.frames(2)
        table = d.app.table_screen
        session = table.session
        assert session is not None
        for move in game.moves:
            if language == "en":
                play_through_taps(d, move)  # the turn committed on the table
            else:
                session.play(move)
            told = move_log(session.record)[0].words
            if language == "en":  # the move said; whose turn it is, once, on the take bar
                nxt = game.setup.players[1 - move.player]
                assert table.status.text == told, table.status.text
                if table.take_bar.turn_label.parent is not None:
                    assert table.take_bar.turn_label.text == f"{nxt}'s turn"
        assert len(session.game.moves) == len(game.moves)  # a blind reserve's card unseen
        told = move_log(session.record)[0].words
        assert ", " + tr("pays {tokens}").format(tokens="") in told  # the last buy's payment
        table.history.undo()
        assert table.status.text == tr("Undone: {move}").format(move=told)
        table.history.redo()
        assert table.status.text == tr("Redone: {move}").format(move=told)
        if language == "fr":
            assert " achète " in told, told
    finally:
        d.close()


def test_each_turn_picker_hands_on_its_answer_or_its_cancel_once_and_closes(
    driver: Driver,
) -> None:
    """The card, noble and give-back pickers: the answer, or Cancel, goes to the table
    once and the picker is gone (the table never waits behind a dialog left open)."""
    d = driver
    game = simulate(players=2, seed=3, max_moves=4)
    card, noble = game.unseen(1)[0], game.nobles[0]
    said: list[object] = []

    def cancelled() -> None:
        said.append("cancelled")

    def tap_the_noble() -> None:
        d.tap(d.find(NobleView, lambda v: v.noble is noble))

    def give_back_a_red() -> None:
        picker = d.top()
        assert isinstance(picker, ReturnPicker)
        d.tap(picker.tokens[Colour.RED])
        d.press(tr("Give back"), exact=True)

    pickers: list[tuple[Callable[[], ModalView], Callable[[], None], object]] = [
        (
            lambda: CardPicker("?", game.unseen(1), said.append, cancelled),
            partial(pick_card, d, card.id),
            card,
        ),
        (lambda: NoblePicker("?", game.nobles, said.append, cancelled), tap_the_noble, noble),
        (
            lambda: ReturnPicker("?", Tokens(red=2, blue=1), 1, said.append, cancelled),
            give_back_a_red,
            Tokens(red=1),
        ),
    ]
    for make, answer_it, answer in pickers:
        for cancel in (True, False):
            said.clear()
            make().open()
            d.frames(2)
            if cancel:
                d.press(tr("Cancel"), exact=True)
            else:
                answer_it()
            d.frames(2)
            assert said == (["cancelled"] if cancel else [answer])
            assert not d.modals()
