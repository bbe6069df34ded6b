"""Colours and proportions: one place, so every screen looks like the same product."""

from __future__ import annotations

from companion.engine.tokens import Colour

RGBA = tuple[float, float, float, float]


def hex_rgba(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


# Each colour's swatches, one row a colour. Tokens and bonuses: a fill strong enough to tell
# apart at arm's length, a text colour that reads on it, and a ring. A card's top band: a light
# tint of its bonus; white's is grey so a white card shows one.
_SWATCHES: dict[Colour, tuple[str, str, str, str]] = {
    #              fill       text       ring       band
    Colour.WHITE: ("#f2f0ea", "#202020", "#9a9a9a", "#c9c6bf"),
    Colour.BLUE: ("#2f6fd6", "#ffffff", "#cfe0ff", "#a9c4ef"),
    Colour.GREEN: ("#23a05a", "#ffffff", "#c8f0d8", "#a6dcbc"),
    Colour.RED: ("#d8372c", "#ffffff", "#ffd0cc", "#f0aaa4"),
    Colour.BLACK: ("#3a3a3f", "#ffffff", "#9a9aa4", "#9d9da3"),
    Colour.GOLD: ("#f0b92a", "#202020", "#fff0c0", "#f6dd99"),
}


def _column(index: int) -> dict[Colour, RGBA]:
    return {colour: hex_rgba(row[index]) for colour, row in _SWATCHES.items()}


TOKEN_FILL = _column(0)
TOKEN_TEXT = _column(1)
TOKEN_RING = _column(2)
BAND = _column(3)

BACKGROUND = hex_rgba("#1b1d24")
PANEL = hex_rgba("#262a35")
PANEL_ACTIVE = hex_rgba("#34405a")
CARD_BODY = hex_rgba("#fbf8f0")
CARD_BACK = (
    hex_rgba("#5a6b3a"),
    hex_rgba("#b8862b"),
    hex_rgba("#2f4f8a"),
)  # levels 1, 2, 3, as on the table
TEXT = hex_rgba("#f4f4f4")
TEXT_DIM = hex_rgba("#a6acb8")
ACCENT = hex_rgba("#f0b92a")
ERROR = hex_rgba("#ff6b5e")
OK = hex_rgba("#5ed38a")
HINT = hex_rgba("#5ed38a")

CARD_INK = hex_rgba("#1e1e1e")
NOBLE_FILL = hex_rgba("#e9dcc0")
NOBLE_RING = hex_rgba("#8a7650")
NOBLE_INK = hex_rgba("#33291a")
BUTTON = hex_rgba("#4a4f5c")
BUTTON_GO = hex_rgba("#2f8a4e")
BUTTON_DISABLED = hex_rgba("#2c2f37")
TEXT_DISABLED = hex_rgba("#6d7280")
BANNER = hex_rgba("#f0b92a")
BANNER_TEXT = hex_rgba("#1b1d24")

# Each gem's outline in a unit box (y up), for the colours other than white and gold
# (round): the kiosk's gems (ui.widgets) and the web page's (web.style) draw the same.
GEM_SHAPES: dict[Colour, tuple[tuple[float, float], ...]] = {
    Colour.BLUE: ((0.5, 1.0), (1.0, 0.5), (0.5, 0.0), (0.0, 0.5)),
    Colour.GREEN: ((0.5, 1.0), (0.95, 0.75), (0.95, 0.25), (0.5, 0.0), (0.05, 0.25), (0.05, 0.75)),
    Colour.RED: ((0.04, 0.96), (0.96, 0.96), (0.96, 0.42), (0.5, 0.0), (0.04, 0.42)),
    Colour.BLACK: ((0.06, 0.94), (0.94, 0.94), (0.94, 0.06), (0.06, 0.06)),
}

# One colour per seat in the points chart, distinct and readable on the dark background:
# the kiosk's end chart (ui.chart) and the web page's.
SEAT_HEX = ("#f0b92a", "#4fa3ff", "#ff6b5e", "#5ed38a")
