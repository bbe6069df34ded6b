"""Setting up a table: as few taps as can be, legible at 800x480, in English and French."""

from __future__ import annotations

import re
from typing import Any

import pytest
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

from companion.engine.cards import CARDS, NOBLES
from companion.engine.simulate import simulate
from companion.engine.tokens import GEMS
from companion.journal.declaring import NewGame
from companion.journal.session import Session
from ui.cardface import CardFace, NobleFace
from ui.screens.setup.pickers import LevelPicker, NobleGrid
from ui.widgets.pieces import CardView, TokenButton

from .conftest import WINDOW, forget_drawn
from .driver import Driver, lay_out_table

NAMES = ["Ada", "Ben", "Cleo", "Dev"]
WORDS = {
    "en": ("New game", "Next", "Start the game"),
    "fr": ("Nouvelle partie", "Suite", "Lancer la partie"),
}
IDS = set(CARDS) | set(NOBLES)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_four_player_table_is_set_up_in_at_most_30_taps(driver: Driver, language: str) -> None:
    d = driver
    setup = simulate(players=4, seed=7, max_moves=0).setup
    # The four played here before: their names are one tap each.
    Session.start(d.app.store, setup.__class__.of(NAMES, setup.nobles, setup.market))
    d.close()
    d.start(language)
    new_game, next_, start = WORDS[language]
    d.taps = 0
    d.press(new_game)
    for name in NAMES:
        d.press(name, exact=True)
    d.press(next_)
    lay_out_table(d, list(setup.nobles), [list(r) for r in setup.market])
    d.press(start)
    print(f"4-player setup, {language}: {d.taps} taps")
    assert d.taps <= 30
    session = d.app.table_screen.session
    assert d.app.manager.current == "table" and session is not None
    assert session.game.setup == setup.__class__.of(NAMES, setup.nobles, setup.market)


def test_a_scanned_card_fills_the_next_place_and_the_picker_moves_on(driver: Driver) -> None:
    d = driver
    setup = simulate(players=2, seed=3, max_moves=0).setup
    draft = NewGame(["Ada", "Ben"])
    for noble in setup.nobles:
        draft.declare(noble)
    d.app.show_setup(draft)
    d.frames(2)
    picker = d.top()
    assert isinstance(picker, LevelPicker) and "Level 3, card 1 of 4" in picker.title.text
    d.app.on_card_scanned(setup.market[2][0])  # the level-3 card on the table: scanned
    d.frames(2)
    assert draft.market[3] == [setup.market[2][0]]
    picker = d.top()
    assert isinstance(picker, LevelPicker) and "Level 3, card 2 of 4" in picker.title.text
    assert all(f.card.id != setup.market[2][0] for f in d.walk() if isinstance(f, CardFace))
    d.app.on_card_scanned(setup.market[0][0])  # a level-1 card fills its own row
    d.frames(2)
    assert draft.market[1] == [setup.market[0][0]]
    d.app.on_card_scanned(setup.market[0][0])  # twice: said without the card's id
    d.frames(2)
    assert "That card is already on the table." in d.texts()
    assert not IDS & set(re.findall(r"\w+", d.texts()))


def test_a_wrong_place_is_taken_back_with_one_tap_and_asked_again(driver: Driver) -> None:
    d = driver
    draft = NewGame(["Ada", "Ben"])
    d.app.show_setup(draft)
    d.frames(2)
    first = next(n for n in NOBLES.values())
    d.tap(d.find(NobleFace, lambda v: v.noble is first))
    assert draft.nobles == [first.id]
    d.tap(d.top().cancel)  # stop the run: the table as it is
    assert not d.modals()
    d.tap(d.find(NobleFace, lambda v: v.noble is first))  # the wrong noble
    assert draft.nobles == []
    assert isinstance(d.top(), NobleGrid)  # asked again at once


def assert_legible(d: Driver, drawn: list[tuple[str, float]], where: str) -> None:
    forget_drawn(drawn)
    for widget in d.walk():
        redraw = getattr(widget, "redraw", None)
        if callable(redraw):
            redraw()
    d.frames(2)
    for widget in d.walk():
        if isinstance(widget, Label) and widget.text and widget.opacity:
            assert widget.font_size >= 14, f"{where}: {widget.text!r} at {widget.font_size} px"
        if isinstance(widget, ButtonBehavior) and not widget.disabled:
            assert min(widget.size) >= 44, f"{where}: {widget} is {widget.size}"
    faces = [w for w in d.walk() if isinstance(w, CardFace | NobleFace)]
    assert drawn or not faces, f"{where}: the text on the cards was not recorded"
    small = [(t, s) for t, s in drawn if t.strip() and s < 14]
    assert not small, f"{where}: text drawn under 14 px: {small[:5]}"
    shown = {t for t, _ in drawn} | {w.text for w in d.walk() if isinstance(w, Label)}
    assert not IDS & {word for t in shown for word in re.findall(r"\w+", t)}, where


@pytest.mark.parametrize("language", ["en", "fr"])
def test_new_game_and_setup_are_legible_at_800x480(
    tmp_path: Any, drawn: list[tuple[str, float]], language: str
) -> None:
    if WINDOW != "800x480":
        pytest.skip("the 7-inch screen's size")
    d = Driver(tmp_path / "data", language=language)
    try:
        setup = simulate(players=4, seed=7, max_moves=0).setup
        Session.start(d.app.store, setup.__class__.of(NAMES, setup.nobles, setup.market))
        d.app.show_new_game()
        d.frames(3)
        d.press("Ada", exact=True)
        assert_legible(d, drawn, "new game")
        draft = NewGame(NAMES)
        for item in [*setup.nobles, *setup.market[2], setup.market[1][0], setup.market[0][0]]:
            draft.declare(item)
        d.app.show_setup(draft)
        d.frames(3)
        assert_legible(d, drawn, "setup, level 2 picker")
        d.tap(d.top().cancel)
        assert_legible(d, drawn, "setup")
        d.tap(d.find(NobleFace, lambda v: v.noble is not None))
        assert_legible(d, drawn, "setup, noble picker")
    finally:
        d.close()


def digits_under(drawn: list[tuple[str, float]], size: float) -> list[tuple[str, float]]:
    return [(t, s) for t, s in drawn if t.strip().isdigit() and s < size]


def test_every_level_picker_draws_costs_and_points_at_18_px_on_the_7_inch_screen(
    driver: Driver, drawn: list[tuple[str, float]]
) -> None:
    """Levels 3 and 2 fit at once, one tap a card; level 1's forty cards at once would be
    too small at 800x480: its colour first, then that colour's cards as the table draws
    them. Every cost and point is drawn at 18 px or more, every target 44 px."""
    if WINDOW != "800x480":
        pytest.skip("the 7-inch screen's size")
    d = driver
    setup = simulate(players=4, seed=7, max_moves=0).setup
    draft = NewGame(NAMES)
    for noble in setup.nobles:
        draft.declare(noble)
    d.app.show_setup(draft)
    d.frames(2)
    for level in (3, 2):
        picker = d.top()
        assert isinstance(picker, LevelPicker) and picker.colours is None, level
        assert_legible(d, drawn, f"level {level} picker")
        assert not digits_under(drawn, 18), (level, digits_under(drawn, 18))
        for card in setup.market[level - 1]:
            d.tap(d.find(CardFace, lambda v, c=card: v.card is not None and v.card.id == c))
    picker = d.top()
    assert isinstance(picker, LevelPicker) and picker.colours is not None
    assert "Tap the card's bonus colour, then the card." in d.texts()
    assert not [w for w in d.walk() if isinstance(w, CardFace | CardView)]  # no card yet
    first = CARDS[setup.market[0][0]]
    d.tap(d.find(TokenButton, lambda t: t.colour == first.bonus, picker))
    shown = [w.card for w in d.walk() if isinstance(w, CardView)]
    assert shown and all(c.bonus == first.bonus for c in shown) and first in shown
    assert len(shown) == 8  # none of its colour on the table yet
    assert_legible(d, drawn, "level 1 picker, one colour")
    assert not digits_under(drawn, 18), digits_under(drawn, 18)
    # Another colour: its cards replace the first one's.
    other = next(c for c in GEMS if c != first.bonus)
    d.tap(d.find(TokenButton, lambda t: t.colour == other, picker))
    assert all(w.card.bonus == other for w in d.walk() if isinstance(w, CardView))
    d.tap(d.find(TokenButton, lambda t: t.colour == first.bonus, picker))
    d.tap(d.find(CardView, lambda v: v.card is first))
    assert draft.market[1] == [first.id]
    picker = d.top()  # the next level-1 place: one card fewer of that colour
    assert isinstance(picker, LevelPicker) and picker.colours is not None
    counts = {t.colour: t.count for t in picker.colours.children}
    assert counts[first.bonus] == 7 and counts[other] == 8
