"""The pieces of the game drawn on a canvas: gems, card faces and backs, nobles, empty
places. No artwork: a card is its colour, points, bonus and cost, large enough to read at
arm's length on the 800x480 screen."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle

from companion.engine.cards import Card, Noble
from companion.engine.tokens import GEMS, Colour

from .. import theme
from .text import draw_text

SMALLEST_TEXT = 14.0  # px: nothing a player reads is drawn smaller (read from across the table)

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
    letter: bool = False,
) -> None:
    """A gem of ``colour`` in a ``d``-sized box, its shape telling the colour, and a count
    whose font is ``digit`` times the box (larger for the numbers read across a table);
    with no count and ``letter``, its colour's letter (W U G R K, the game record's), so
    that where there is room even the shape is not the only cue."""
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
    elif letter:
        ink = theme.TOKEN_TEXT[colour]
        size = max(SMALLEST_TEXT, d * 0.56)
        draw_text(canvas, colour.letter, x, y, d, d, (*ink[:3], alpha), size)


def legible_digit(d: float) -> float:
    """A count's share of a gem of size ``d`` (for :func:`draw_gem`'s ``digit``) that
    keeps the count at :data:`SMALLEST_TEXT` at the least, on any screen (cards drawn
    small in the pickers and the move log)."""
    return max(0.6, (SMALLEST_TEXT + 0.5) / max(d, 1.0))


def draw_bonus(
    canvas: Any, colour: Colour, x: float, y: float, d: float, owned: int, digit: float = 0.8
) -> None:
    """Bonuses of ``colour`` as a player holds them: a card's square with the gem and how
    many on it (none owned: a faint square keeps the column)."""
    canvas.add(Color(*(theme.CARD_BODY if owned else (1, 1, 1, 0.08))))
    canvas.add(RoundedRectangle(pos=(x, y), size=(d, d), radius=[d * 0.12]))
    if owned:
        g = d * 0.92
        draw_gem(canvas, colour, x + (d - g) / 2, y + (d - g) / 2, g, str(owned), digit=digit)


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
