"""The pieces of the table, drawn by the app itself: cards, nobles, tokens, panels.

No artwork: a card is its colour, points, bonus and cost, large enough to read at arm's
length on the 800x480 screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.engine.cards import Card, Noble
from companion.engine.game import Hidden
from companion.engine.tokens import GEMS, Colour, Tokens
from companion.i18n import localise

from . import theme
from .scale import SCALE


@lru_cache(maxsize=2048)
def _texture(text: str, size: int, bold: bool, colour: tuple[float, ...]) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=bold, color=colour)
    label.refresh()
    return label.texture


def forget_drawn_text() -> None:
    """Empty the cache of drawn text (a texture per text, size and colour): its memory comes
    back, and each text is rendered afresh when next drawn."""
    _texture.cache_clear()


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` by :func:`draw_text`, to lay it out first."""
    return float(_texture(text, int(size), bold, (1.0, 1.0, 1.0, 1.0)).width) if text else 0.0


def widest_word(text: str, size: float, bold: bool = True) -> float:
    """The width of ``text``'s widest word at ``size``: the least width that wraps it
    between words only (Kivy breaks a word that does not fit: "Rétabli/r")."""
    return max((text_width(word, size, bold) for word in text.split()), default=0.0)


def draw_text(
    canvas: Any,
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    colour: Any,
    size: float,
    bold: bool = True,
) -> None:
    """Text centred in a box, drawn straight on a canvas: no widget, textures cached.

    The table redraws often; a Label widget per number would cost more than the drawing.
    Text too wide for its box is rendered again at the size that fits, never squeezed:
    what is drawn is the font size the legibility test reads.
    """
    if not text:
        return
    # Never under the window's floor (14 px; 12 on a 3.5-inch screen): on a small window
    # a digit may fill its gem to the edge, but it is read.
    floor = math.ceil(SCALE.min_text)
    size = max(int(size), floor)
    texture = _texture(text, size, bold, tuple(colour))
    tw, th = texture.size
    if tw > w > 0 and size > floor:
        texture = _texture(text, max(floor, int(size * w / tw)), bold, tuple(colour))
        tw, th = texture.size
    canvas.add(Color(1, 1, 1, 1))
    canvas.add(Rectangle(texture=texture, pos=(x + (w - tw) / 2, y + (h - th) / 2), size=(tw, th)))


def text_label(text: str = "", scale: float = 0.5, **kw: Any) -> Label:
    """A label whose font follows its height, so layouts scale from 800x480 up."""
    label = Label(text=text, **kw)
    label.bind(height=lambda w, h: setattr(w, "font_size", max(14.0, h * scale)))
    label.font_size = max(14.0, label.height * scale)
    label.bind(
        size=lambda w, s: setattr(w, "text_size", (s[0], None)) if w.halign != "center" else None
    )
    return label


def wrapping_label(text: str = "", font: float = 18, **kw: Any) -> Label:
    """A label as tall as its wrapped text: a message is never cut off."""
    label = Label(text=text, font_size=font, size_hint_y=None, halign="left", valign="middle", **kw)
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
    label.bind(texture_size=lambda w, ts: setattr(w, "height", max(ts[1], w.font_size * 1.4)))
    label.height = font * 1.4  # until its text is rendered (an empty one never is)
    return label


class Tappable(ButtonBehavior, Widget):
    """A widget that draws itself on its canvas and can be tapped."""

    highlight = BooleanProperty(False)
    selected = BooleanProperty(False)
    dimmed = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        # Several properties often change in one frame: draw once, at the end of it.
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(
            pos=self.redraw_soon,
            size=self.redraw_soon,
            highlight=self.redraw_soon,
            selected=self.redraw_soon,
            dimmed=self.redraw_soon,
        )

    def redraw(self, *_: Any) -> None:
        raise NotImplementedError


# Each gem has its own shape as well as its colour, so that red and green (or blue and
# black) stay apart for a colour-blind player: white round, blue a diamond, green a
# hexagon, red a shield, black a square, gold a coin with a ring. Points of each outline
# in a unit box; the digit sits at ``_DIGIT_Y`` of the box's height.
_SHAPES = theme.GEM_SHAPES  # one list for the kiosk and the web page
_DIGIT_Y = {Colour.RED: 0.58}


def draw_gem(
    canvas: Any,
    colour: Colour,
    x: float,
    y: float,
    d: float,
    count: str = "",
    digit: float = 0.56,
    alpha: float = 1.0,
) -> None:
    """A gem of ``colour`` in a ``d``-sized box, its shape telling the colour, and a count
    whose font is ``digit`` times the box (larger for the numbers read across a table)."""
    fill, ring = theme.TOKEN_FILL[colour], theme.TOKEN_RING[colour]
    outline = _SHAPES.get(colour)
    canvas.add(Color(*fill[:3], alpha))
    if outline is None:
        canvas.add(Ellipse(pos=(x, y), size=(d, d), segments=36))
    else:
        points = [(x + px * d, y + py * d) for px, py in outline]
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        vertices = [cx, cy, 0, 0]
        for px, py in [*points, points[0]]:
            vertices += [px, py, 0, 0]
        canvas.add(
            Mesh(vertices=vertices, indices=list(range(len(points) + 2)), mode="triangle_fan")
        )
    canvas.add(Color(*ring[:3], alpha))
    if outline is None:
        canvas.add(Line(circle=(x + d / 2, y + d / 2, d / 2, 0, 360, 36), width=1))
        if colour == Colour.GOLD:
            canvas.add(Line(circle=(x + d / 2, y + d / 2, d * 0.38, 0, 360, 36), width=1))
    else:
        canvas.add(Line(points=[v for p in points for v in p], close=True, width=1))
    if count:
        size = d * digit
        cy = y + d * _DIGIT_Y.get(colour, 0.5) - size * 0.6
        ink = theme.TOKEN_TEXT[colour]
        draw_text(canvas, count, x, cy, d, size * 1.2, (*ink[:3], max(alpha, 0.6)), size)


class CardView(Tappable):
    """A development card, a blind-reserved card (``Hidden``), a deck, or an empty slot.

    Drawn as the physical card reads: points, bonus gem, cost. Small (a card in a player's
    reserve) it shows its bonus and points only; a tap opens it in full.
    """

    card = ObjectProperty(None, allownone=True)
    deck_level = NumericProperty(0)  # a deck: its level
    deck_count = NumericProperty(0)
    small = BooleanProperty(False)  # a reserve slot: bonus, points and level only

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(card=self.redraw_soon, deck_count=self.redraw_soon, deck_level=self.redraw_soon)
        self.bind(small=self.redraw_soon)

    def _text(self, text: str, x: float, y: float, w: float, h: float, colour: Any) -> None:
        draw_text(self.canvas, text, x, y, w, h, colour, h)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        r = min(w, h) * 0.08
        card = self.card
        if self.deck_level:
            draw_back(c, self.deck_level, x, y, w, h, r, alpha=1 if self.deck_count else 0.35)
            self._text(ROMAN[self.deck_level], x, y + h * 0.52, w, h * 0.3, theme.TEXT)
            self._text(str(self.deck_count), x, y + h * 0.14, w, h * 0.28, theme.TEXT)
        elif card is None:
            draw_place(c, x, y, w, h, r)
        elif isinstance(card, Hidden):
            draw_back(c, card.level, x, y, w, h, r)
            if self.small or h < 60:  # a reserve slot: the level and a question mark
                self._text(ROMAN[card.level] + " ?", x, y + h * 0.2, w, h * 0.6, theme.TEXT)
            else:
                self._text("?", x, y + h * 0.25, w, h * 0.45, theme.TEXT)
                self._text(ROMAN[card.level], x, y + h * 0.72, w, h * 0.2, theme.TEXT)
        elif self.small or h < 60:
            self._draw_small(card, x, y, w, h, r)
        else:
            self._draw_card(card, x, y, w, h, r)
        if self.highlight or self.selected:
            c.add(Color(*(theme.ACCENT if self.selected else theme.HINT)))
            c.add(Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, r), width=2.5))
        if self.dimmed:
            c.add(Color(0, 0, 0, 0.55))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))

    def _band(self, card: Card, x: float, y: float, w: float, band: float, r: float) -> None:
        """The card's top: a tint of its bonus (a white bonus: a grey band, so it shows)."""
        c = self.canvas
        c.add(Color(*theme.BAND[card.bonus]))
        c.add(RoundedRectangle(pos=(x, y), size=(w, band), radius=[r, r, 0, 0]))

    def _draw_small(self, card: Card, x: float, y: float, w: float, h: float, r: float) -> None:
        """A reserve slot: the bonus gem and the points on top, the level below."""
        draw_body(self.canvas, card, x, y, w, h, r)
        self._band(card, x, y + h * 0.5, w, h * 0.5, r)
        c = self.canvas
        gem = min(h * 0.46, w * 0.44)
        draw_gem(c, card.bonus, x + w - gem - w * 0.06, y + h * 0.52, gem)
        if card.points:
            draw_text(
                c, str(card.points), x, y + h * 0.5, w * 0.5, h * 0.5, theme.CARD_INK, h * 0.4
            )
        level = ROMAN[card.level]
        draw_text(c, level, x, y + h * 0.04, w, h * 0.44, theme.CARD_BACK[card.level - 1], h * 0.36)

    def _draw_card(self, card: Card, x: float, y: float, w: float, h: float, r: float) -> None:
        draw_body(self.canvas, card, x, y, w, h, r)
        band = h * 0.3
        self._band(card, x, y + h - band, w, band, r)
        if card.points:
            self._text(
                str(card.points), x + w * 0.04, y + h - band, band, band * 0.9, theme.CARD_INK
            )
        gem = band * 0.8
        draw_gem(
            self.canvas, card.bonus, x + w - gem - w * 0.06, y + h - band + (band - gem) / 2, gem
        )
        costs = [(col, n) for col, n in zip(GEMS, card.cost, strict=True) if n]
        # Two columns of large gems: the cost is what players read from across the table.
        d = min((h - band) * 0.42, w * 0.42)
        for i, (colour, n) in enumerate(costs):
            px = x + w * 0.05 + (i % 2) * d * 1.08
            py = y + h * 0.06 + (i // 2) * d * 1.06
            draw_gem(self.canvas, colour, px, py, d, str(n))


ROMAN = ("", "I", "II", "III")


def draw_place(
    canvas: Any,
    x: float,
    y: float,
    w: float,
    h: float,
    r: float,
    mark: str = "",
    chosen: bool = False,
) -> None:
    """An empty place (a card or noble still to come): a dashed outline, ``mark`` in it;
    the place being filled (``chosen``) in the accent colour."""
    canvas.add(Color(*(theme.ACCENT if chosen else (1, 1, 1, 0.35))))
    canvas.add(
        Line(
            rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, r),
            width=2 if chosen else 1,
            dash_offset=4,
            dash_length=6,
        )
    )
    draw_text(canvas, mark, x, y, w, h, theme.TEXT_DIM, max(14.0, h * 0.4))


def draw_back(
    canvas: Any, level: int, x: float, y: float, w: float, h: float, r: float, alpha: float = 1
) -> None:
    """A card of ``level`` seen from the back (a deck, a card reserved face down)."""
    canvas.add(Color(*theme.CARD_BACK[level - 1][:3], alpha))
    canvas.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
    canvas.add(Color(1, 1, 1, 0.6))
    canvas.add(Line(rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, r), width=1))


def draw_body(canvas: Any, card: Card, x: float, y: float, w: float, h: float, r: float) -> None:
    """A card's face without its content: the body, its level's strip, the outline."""
    canvas.add(Color(*theme.CARD_BODY))
    canvas.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
    canvas.add(Color(*theme.CARD_BACK[card.level - 1]))
    canvas.add(Rectangle(pos=(x + r, y), size=(w - 2 * r, max(3.0, h * 0.04))))
    canvas.add(Color(0.5, 0.5, 0.5, 1))
    canvas.add(Line(rounded_rectangle=(x, y, w, h, r), width=1))


def draw_noble(canvas: Any, noble: Noble, x: float, y: float, w: float, h: float) -> None:
    """A noble tile: its points on the left, the bonuses it asks for in a 2x2 grid of gems."""
    canvas.add(Color(*theme.NOBLE_FILL))
    canvas.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[6]))
    canvas.add(Color(*theme.NOBLE_RING))
    canvas.add(Line(rounded_rectangle=(x, y, w, h, 6), width=1.2))
    needs = [(col, n) for col, n in zip(GEMS, noble.requires, strict=True) if n]
    strip = w * 0.22  # the points, on the left as on the tile
    pad = min(w, h) * 0.05
    d = min((h - 3 * pad) / 2, (w - strip - 3 * pad) / 2)
    rows = (len(needs) + 1) // 2
    block = rows * d + (rows - 1) * pad
    top = y + (h + block) / 2  # a tall tile keeps its content in the middle
    ink = theme.NOBLE_INK
    draw_text(canvas, str(noble.points), x, top - d * 1.2, strip, d * 1.2, ink, d * 0.9)
    for i, (colour, n) in enumerate(needs):
        px = x + strip + pad + (i % 2) * (d + pad)
        py = top - d - (i // 2) * (d + pad)
        draw_gem(canvas, colour, px, py, d, str(n))


class NobleView(Tappable):
    """A noble tile: its points, and the bonuses it asks for (up to a 2x2 grid of gems)."""

    noble = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(noble=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        noble: Noble | None = self.noble
        if noble is None:
            c.add(Color(1, 1, 1, 0.25))
            c.add(Line(rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, 6), width=1))
            return
        draw_noble(c, noble, x, y, w, h)
        if self.highlight or self.selected:
            c.add(Color(*(theme.ACCENT if self.selected else theme.HINT)))
            c.add(Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, 6), width=2.5))


class TokenButton(Tappable):
    """A bank pile: its colour and how many are left; ``chosen`` tokens of a take so far.

    ``sign`` marks the chosen tokens: ``+`` taken, ``-`` given back. ``blank`` shows no
    count (a bank audit, before the pile is counted). ``locked``: a pile that cannot be
    tapped (gold: it comes only with a reserve), drawn with a lock-like bar across.
    """

    colour = ObjectProperty(Colour.WHITE)
    count = NumericProperty(0)
    chosen = NumericProperty(0)
    sign = StringProperty("+")
    blank = BooleanProperty(False)
    locked = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(
            colour=self.redraw_soon,
            count=self.redraw_soon,
            chosen=self.redraw_soon,
            sign=self.redraw_soon,
            blank=self.redraw_soon,
            locked=self.redraw_soon,
        )

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        d = min(self.width, self.height) * 0.94
        x = self.center_x - d / 2
        y = self.center_y - d / 2
        alpha = 0.3 if self.dimmed else 0.55 if self.locked else 1.0
        draw_gem(c, self.colour, x, y, d, "?" if self.blank else str(self.count), alpha=alpha)
        if self.locked:  # not takable: a no-entry sign on the pile's corner
            b = max(d * 0.42, 22.0)
            bx, by = x + d - b * 0.8, y - b * 0.1
            c.add(Color(*theme.PANEL))
            c.add(Ellipse(pos=(bx, by), size=(b, b), segments=24))
            c.add(Color(*theme.ERROR))
            c.add(Line(circle=(bx + b / 2, by + b / 2, b / 2 - 1, 0, 360, 24), width=1.5))
            c.add(Line(points=[bx + b * 0.25, by + b / 2, bx + b * 0.75, by + b / 2], width=2))
        if self.selected:  # the colour being shown (a picker's tab)
            c.add(Color(*theme.ACCENT))
            c.add(
                Line(
                    rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, 8),
                    width=2,
                )
            )
        if self.chosen:
            b = max(d * 0.5, 30.0)
            bx, by = x + d - b * 0.75, y + d - b * 0.75
            c.add(Color(*(theme.ACCENT if self.sign == "+" else theme.ERROR)))
            c.add(Ellipse(pos=(bx, by), size=(b, b)))
            draw_text(c, f"{self.sign}{self.chosen}", bx, by, b, b, (0.1, 0.1, 0.1, 1), b * 0.55)


class GemRow(Widget):
    """Tokens as a row of gems with their counts (a payment, a cost): shapes, not words."""

    values = ListProperty([0] * 6)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon, values=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        d = self.height
        x = self.x
        for colour, n in zip(Colour, self.values, strict=True):
            if n:
                draw_gem(c, colour, x, self.y, d, str(n), digit=0.6)
                x += d * 1.15


def big_button(text: str, on_press: Callable[[], object], **kw: Any) -> Button:
    """A button for a finger: its words wrap between words rather than spill, 16 px at
    the least.

    A disabled button is drawn flat and grey, its words dimmed: it must not look like a
    button that failed to react.
    """
    kw.setdefault("background_color", theme.BUTTON)
    button = Button(
        text=text,
        bold=True,
        halign="center",
        valign="middle",
        background_normal="",
        background_disabled_normal="",
        disabled_color=theme.TEXT_DISABLED,
        **kw,
    )
    colour = tuple(button.background_color)
    button.bind(size=lambda b, s: setattr(b, "text_size", (s[0] * 0.94, None)))

    def fit(b: Button, *_: object) -> None:
        # As large as the height allows, but small enough (down to 16 px) that the widest
        # word fits the width: widths grow with the font size, so one measure at 18 px
        # scales to any size.
        widest = widest_word(b.text, 18) or 1.0
        b.font_size = max(16.0, min(b.height * 0.38, 26, b.width * 0.94 * 18 / widest))

    button.bind(size=fit, text=fit)
    button.bind(on_release=lambda *_: on_press())

    def look(b: Button, disabled: bool) -> None:
        b.background_color = theme.BUTTON_DISABLED if disabled else colour

    button.bind(disabled=look)
    look(button, button.disabled)
    return button


def then(*actions: Callable[[], object]) -> Callable[[], None]:
    """One button, several things in order (close the dialog, then act)."""

    def run() -> None:
        for action in actions:
            action()

    return run


def tokens_text(tokens: Tokens) -> str:
    """``2 red, 1 gold`` in the current language."""
    return localise(tokens) or "0"


def short_forms(name: str) -> list[str]:
    """Ever shorter forms of a name that stay recognisable, cut between its words (or the
    parts of a hyphenated one), never inside one: "Jean-Baptiste Martin", "Jean-Baptiste…",
    "Jean-…"; a single long word keeps its start: "Maximiliano" → "Maximil…"."""
    forms = [name]
    parts = [p for p in name.replace("-", "- ").split(" ") if p]
    for n in range(len(parts) - 1, 0, -1):
        forms.append("".join(p if p.endswith("-") else p + " " for p in parts[:n]).strip() + "…")
    first = parts[0].rstrip("-") if parts else name
    for n in range(len(first) - 1, 2, -1):
        forms.append(first[:n] + "…")
    return forms


def fit_name(label: Label, least: Callable[[], float], most: Callable[[], float]) -> None:
    """Keep ``label`` showing its ``full_name`` whole if it fits its width at a font between
    ``least()`` and ``most()``, on two lines between its words where the label is tall
    enough; else its longest short form that fits (:func:`short_forms`). The full name is
    always one tap away (the player's panel opens the overview)."""

    def fit(*_: Any) -> None:
        label.text_size = (label.width, label.height)
        name = getattr(label, "full_name", "") or ""
        width = max(1.0, float(label.width) - 4)
        big = most()
        floor = min(least(), big)  # a small screen's largest may be under the usual least
        shown, size = name, big
        words = name.split()
        widest = max((text_width(w, 20, label.bold) for w in words), default=1.0) or 1.0
        two_lines = min(big, width * 20 / widest, label.height / 2.5)
        one_line = min(big, width * 20 / (text_width(name, 20, label.bold) or 1.0))
        if len(words) > 1 and one_line < floor <= two_lines:
            label.font_size = two_lines  # the whole name, wrapped between its words
            label.text = name
            return
        for form in short_forms(name):
            need = text_width(form, 20, label.bold) or 1.0
            size = min(big, width * 20 / need)
            shown = form
            if size >= floor:
                break
        label.font_size = max(floor, size)
        label.text = shown

    label.bind(size=fit)
    label.fit_name = fit  # called again when the name changes
