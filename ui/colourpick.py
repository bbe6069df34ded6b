"""A card chosen among many: in one tap where every card of the choice can be drawn at
once with its cost legible (:func:`arrangement`), else in two, its bonus colour, then the
card.

Shared by the setup's level picker and the table's card picker. Before a colour is
tapped, the five colours fill the panel as five cards, each with the number of its cards
on a badge; once one is tapped they shrink to a strip on top and that colour's cards fill
the rest, drawn as the table draws them, as large as the room allows. Both arrange
themselves again whenever their room changes (another window size, a rotation).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.engine.cards import Card
from companion.engine.tokens import GEMS, Colour

from . import theme
from .cardface import CARD_RATIO, CardFace, ColourCard, cost_digit
from .layout import TileGrid, gap, grow_label, row_height
from .scale import SCALE
from .widgets.pieces import CardView

LEGIBLE = 18.0  # px at 800x480: a card's cost read at arm's length on the 7-inch screen
# The table's card picker: the card turned face up is in the player's hand, looked for
# among the others, its cost read at the text floor (14 px) or more; one tap, not two.
IN_HAND = 14.0

Arrangement = tuple[int, int, bool]  # columns, rows, a column a colour


def by_bonus(cards: Sequence[Card]) -> dict[Colour, list[Card]]:
    """``cards`` by bonus colour, a list a gem colour in the table's order (empty where
    none has it)."""
    return {colour: [card for card in cards if card.bonus == colour] for colour in GEMS}


def arrangement(
    by_colour: dict[Colour, list[Card]], width: float, height: float, least: float = LEGIBLE
) -> Arrangement | None:
    """Every card at once, a row per bonus colour (a column in portrait): the arrangement
    that draws every cost largest, if that is legible at ``least`` px at 800x480 (the
    setup's :data:`LEGIBLE`; never under the text floor); else ``None``."""
    cards = [card for cards in by_colour.values() for card in cards]
    if not cards or width < 2 or height < 2:
        return None
    longest = max(4, *(len(v) for v in by_colour.values()))
    best: tuple[float, Arrangement] | None = None
    for by_column in (False, True):
        cols, rows = (len(GEMS), longest) if by_column else (longest, len(GEMS))
        w = (width - gap(4) * (cols - 1)) / cols
        h = (height - gap(4) * (rows - 1)) / rows
        digit = min(cost_digit(card, w, h, floored=False) for card in cards)
        if best is None or digit > best[0]:
            best = (digit, (cols, rows, by_column))
    assert best is not None
    return best[1] if best[0] >= SCALE.font(least) else None


def all_at_once(
    by_colour: dict[Colour, list[Card]],
    layout: Arrangement,
    on_pick: Callable[[Card], None],
    dimmed: Collection[str] = (),
) -> GridLayout:
    """Every card in a grid, a row (or a column) per bonus colour; a tap picks one. Each
    card shows its bonus gem and letter: no heading needed for a colour."""
    cols, rows, by_column = layout
    grid = GridLayout(cols=cols, rows=rows, spacing=gap(4))
    if by_column:
        grid.orientation = "tb-lr"
    for cards in by_colour.values():
        line = cards[: rows if by_column else cols]
        for card in line:
            face = CardFace(card=card)
            if card.id in dimmed:
                face.opacity = 0.45  # shown, not possible now (too dear)
            face.bind(on_release=lambda v, c=card: on_pick(c))
            grid.add_widget(face)
        for _ in range((rows if by_column else cols) - len(line)):
            grid.add_widget(Widget())
    return grid


class ColourFirst(BoxLayout):
    """The colours of ``cards``, then the cards of the colour tapped; ``on_pick`` gets the
    card. ``dimmed``: cards shown but not possible now (too dear), drawn faded."""

    def __init__(
        self,
        cards: Sequence[Card],
        on_pick: Callable[[Card], None],
        hint: str,
        dimmed: Collection[str] = (),
        at_once: bool = False,
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", **kw)
        # Every card at once (one tap) where they are legible so (the table's card
        # picker: a card turned face up is one tap where it can be, issue 34).
        self.at_once = at_once
        self.shown_at_once: Arrangement | None = None
        self.cards = list(cards)
        self.on_pick = on_pick
        self.dimmed = set(dimmed)
        self.by_colour = by_bonus(self.cards)
        self.shown: Colour | None = None
        self.hint = grow_label(hint, font=20, halign="center", color=theme.TEXT_DIM)
        self.tiles: list[Widget] = []
        for colour, chosen in self.by_colour.items():
            tile = ColourCard(colour=colour, count=len(chosen), disabled=not chosen)
            tile.bind(on_release=lambda t, col=colour: self.show_colour(col))
            self.tiles.append(tile)
        self.strip = TileGrid(self.tiles, CARD_RATIO)
        self.cards_view: TileGrid | None = None
        self.lay_out()
        if at_once:
            self.bind(size=self._resized)

    def _resized(self, *_: Any) -> None:
        if self.shown is None and self._arrangement() != self.shown_at_once:
            self.lay_out()

    def _arrangement(self) -> Arrangement | None:
        if not self.at_once:
            return None
        return arrangement(self.by_colour, float(self.width), float(self.height), IN_HAND)

    def refit(self) -> None:
        """After a resize (:func:`ui.layout.refit`): sizes from the window's scale."""
        self.spacing = gap(6)
        if self.shown is not None:
            self.strip.height = row_height(72)

    @property
    def colours(self) -> GridLayout:
        """The colours to tap: their children are the tiles (a TokenButton each)."""
        return self.strip.grid

    @property
    def grid(self) -> GridLayout | None:
        """The cards of the colour shown."""
        return self.cards_view.grid if self.cards_view is not None else None

    def show_colour(self, colour: Colour) -> None:
        """The cards of ``colour``, a tap picks one."""
        self.shown = colour
        for tile in self.tiles:
            tile.selected = tile.colour == colour
        self.lay_out()

    def lay_out(self) -> None:
        """Nothing chosen: the colours fill the panel, the hint above them. A colour
        chosen: the colours as a strip on top, that colour's cards below."""
        self.clear_widgets()
        self.spacing = gap(6)
        for tile in self.tiles:
            if tile.parent is not None:
                tile.parent.remove_widget(tile)
        self.shown_at_once = None
        if self.shown is None and (layout := self._arrangement()) is not None:
            self.shown_at_once = layout
            self.add_widget(all_at_once(self.by_colour, layout, self.on_pick, self.dimmed))
            return
        if self.shown is None:
            self.add_widget(self.hint)
            self.strip = TileGrid(self.tiles, CARD_RATIO, spacing=12)
            self.add_widget(self.strip)
            return
        # Each colour a finger's width at the least (its card drawn inside, a card's shape).
        self.strip = TileGrid(self.tiles, 0.9, spacing=14, size_hint_y=None, height=row_height(72))
        self.add_widget(self.strip)
        views: list[Widget] = []
        for card in self.by_colour[self.shown]:
            view = CardView(card=card, dimmed=card.id in self.dimmed)
            view.bind(on_release=lambda v, c=card: self.on_pick(c))
            views.append(view)
        # Four places at the least: a colour with few cards left keeps a card's size.
        self.cards_view = TileGrid(views, CARD_RATIO, spacing=8, least=4)
        self.add_widget(self.cards_view)
