"""What follows the window on the screens off the table: a screen shown while the window
turns is laid out again at once; names are shortened by whole words, never cut inside
one; the card picker is finished (colours as cards with their counts on badges, filling
its panel); the end screen's chart reads from around the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from kivy.uix.label import Label

from companion.engine.simulate import simulate
from companion.engine.tokens import GEMS, Colour
from companion.journal.store import GameState
from companion.records.record import Record
from ui.cardface import ColourCard
from ui.chart import ChanceChart, PointsChart
from ui.dialogs import CardPicker
from ui.layout import short_name
from ui.scale import SCALE
from ui.widgets.pieces import CardView
from ui.widgets.text import text_width

from .conftest import WINDOW, forget_drawn
from .driver import Driver
from .legible import rendered

pytestmark = pytest.mark.skipif(WINDOW != "800x480", reason="resizes from the 7-inch screen")


@pytest.mark.parametrize(
    ("name", "room", "shown"),
    [
        ("Marie-Christine", 60, "Marie-…"),
        ("Jean Baptiste Poquelin", 120, "Jean Baptiste…"),
        ("Jean Baptiste Poquelin", 60, "Jean…"),
        ("Zoé", 60, "Zoé"),
    ],
)
def test_a_name_too_long_is_shortened_by_whole_words(name: str, room: int, shown: str) -> None:
    """Never "Co...ion": the leading words that fit, or the first word, with "…"."""
    said = short_name(name, room, 16)
    assert said == shown
    if said != name:
        assert text_width(said, 16) <= room or said.count(" ") == 0


def test_a_screen_shown_while_the_window_turns_is_laid_out_again(
    driver: Driver, resized: Callable[[tuple[int, int]], None]
) -> None:
    """New game, landscape: the keyboard beside the seats; turned to portrait, below
    them, as wide as the window, without leaving the screen."""
    d = driver
    d.app.show_new_game()
    d.frames(2)
    screen = d.app.new_game_screen

    def key_q() -> Label:
        return d.find(Label, lambda b: b.text == "Q")

    def seat_one() -> Label:
        return d.find(Label, lambda b: b.text.startswith("1."))

    assert key_q().x > seat_one().right  # beside
    resized((480, 800))
    assert d.app.manager.current == "newgame" and screen.names == ["", ""]
    assert key_q().top < seat_one().y  # below
    assert key_q().x < 20
    resized((1920, 1080))
    assert key_q().x > seat_one().right
    assert key_q().height >= SCALE.target(44) and SCALE.unit == 2.25


def test_the_card_picker_shows_colours_as_cards_with_their_counts_then_the_cards(
    driver: Driver, resized: Callable[[tuple[int, int]], None]
) -> None:
    d = driver
    game = simulate(players=4, seed=9, max_moves=30)
    # Too many to show at once with their costs legible (a level's cards show at once on
    # these screens: tests/gui/test_taps.py): the colour first.
    cards = [*game.unseen(1), *game.unseen(2), *game.unseen(3)]
    picker = CardPicker("Which card?", cards, lambda c: None)
    picker.open()
    try:
        for size in ((800, 480), (720, 1280)):
            resized(size)
            tiles = [w for w in d.walk(picker) if isinstance(w, ColourCard)]
            assert sorted(t.colour for t in tiles) == list(GEMS)
            # The colours fill the panel: not a strip of counts over an empty body.
            body = picker.body
            covered = sum(t.width * t.height for t in tiles)
            assert covered > 0.25 * body.width * body.height, size
            # Each colour's count is drawn on its card, as large as a cost.
            for tile in tiles:
                with rendered() as seen:
                    tile.redraw()
                count = sum(1 for c in cards if c.bonus == tile.colour)
                counts = [s for t, s in seen if t == str(count)]
                assert counts and min(counts) >= SCALE.font(18) - 1, (size, seen)
                assert tile.colour.letter in [t for t, _ in seen]  # not colour alone
        picker.show_colour(Colour.BLUE)
        d.frames(2)
        views = [w for w in d.walk(picker) if isinstance(w, CardView)]
        assert {v.card.id for v in views} == {c.id for c in cards if c.bonus == Colour.BLUE}
        assert all(v.height > v.width for v in views)  # drawn as cards, a card's shape
    finally:
        picker.dismiss()


def test_the_end_chart_is_read_from_around_the_table(
    tmp_path: Path, drawn: list[tuple[str, float]], resized: Callable[[tuple[int, int]], None]
) -> None:
    """18 px at 800x480 (the rules' least is 14), and scaled up with the window."""
    d = Driver(tmp_path / "data")
    try:
        game = simulate(players=4, seed=4)
        game_id = d.app.store.import_record(Record.of(game), GameState.of(game))
        d.app.show_past_game(game_id)
        for size, least in (((800, 480), 18), ((1280, 720), 27)):
            resized(size)
            forget_drawn(drawn)
            d.app.end_screen.chart.redraw()
            words = [s for t, s in drawn if t in ("Round", "Points")]
            assert words and min(words) >= least, (size, words)
            numbers = [s for t, s in drawn if t.isdigit()]
            assert min(numbers) >= least, (size, numbers)
    finally:
        d.close()


def test_the_scale_gives_the_windows_room_after_a_resize_or_a_rotation(
    resized: Callable[[tuple[int, int]], None],
) -> None:
    """Screens share out the window's room from ``SCALE.width`` and ``SCALE.height``, never
    from the window itself: after a resize they hold the new size, with the unit."""
    resized((1024, 600))
    assert (SCALE.width, SCALE.height, SCALE.unit) == (1024, 600, 1.25)
    resized((720, 1280))
    assert (SCALE.width, SCALE.height, SCALE.unit, SCALE.portrait) == (720, 1280, 1.5, True)


def _disjoint(chart: PointsChart) -> list[tuple[int, int]]:
    """The pairs of the chart's line markers whose boxes meet."""
    boxes = chart.markers
    return [
        (i, j)
        for i in range(len(boxes))
        for j in range(i + 1, len(boxes))
        if abs(boxes[i][0] - boxes[j][0]) < (boxes[i][2] + boxes[j][2]) / 2
        and abs(boxes[i][1] - boxes[j][1]) < (boxes[i][2] + boxes[j][2]) / 2
    ]


@pytest.mark.parametrize("size", [(800, 480), (480, 320), (720, 1280)])
def test_the_charts_markers_never_lie_on_each_other(
    size: tuple[int, int], resized: Callable[[tuple[int, int]], None]
) -> None:
    """Four lines running together (equal chances, equal points), a review under way (a
    few moves drawn of many) and finished, costly moves ringed: every marker's box
    apart from every other's and from the rings."""
    resized(size)
    rounds = [[p, p, p, p] for p in range(0, 30)]
    end = PointsChart(rounds=rounds, names=list("ABCD"), size=(SCALE.width, SCALE.height / 2))
    end.redraw()
    assert end.markers and _disjoint(end) == []
    for drawn in (12, 90):  # under way, then the whole game
        chances = [[0.25, 0.25, 0.25, 0.25] for _ in range(drawn)]
        review = ChanceChart(
            rounds=chances,
            moves=89,
            names=list("ABCD"),
            marks=[(4, 0), (7, 2), (40, 1)],
            size=(SCALE.width, SCALE.height / 2),
        )
        review.redraw()
        assert _disjoint(review) == [], (drawn, review.markers)
        assert len(review.markers) >= (3 if drawn == 90 else 0)
