"""The page's colours and gem shapes, from the kiosk's own (:mod:`ui.theme`, which imports
no Kivy): one source, so a red token on a phone is the red token of the touchscreen.

Two schemes, as the phone prefers (``prefers-color-scheme``): the kiosk's dark one, and a
light one of the page's own (the kiosk has no light mode). The pieces of the game (tokens,
card bands, card backs, nobles) are the kiosk's colours in both; what changes is the
paper around them. Each digit printed on a colour is the kiosk's ink where that reads at
4.5:1 at least (WCAG's level for text), else the darker or lighter ink that does.
"""

from __future__ import annotations

from companion.engine.tokens import Colour
from ui import theme

READABLE = 4.5  # the contrast a text's colour keeps against what is behind it
DARK_INK = "#1e1e1e"
LIGHT_INK = "#ffffff"

# The light scheme's paper and text, in the names of the dark one's (the kiosk's).
LIGHT = {
    "background": "#f3f1ec",
    "panel": "#ffffff",
    "panel-active": "#e2e7f2",
    "text": "#1b1d24",
    "text-dim": "#4f5562",
    "accent": "#7a5200",
    "error": "#b3261e",
    "alert": "#b3261e",
    "alert-text": "#ffffff",
    "banner": "#f0b92a",
    "banner-text": "#1b1d24",
    "button": "#e2e4ea",
    "button-text": "#1b1d24",
    "go": "#23713f",
    "go-text": "#ffffff",
    "grid": "#d5d8df",
    "edge": "#b5b1a6",  # a card's edge: its cream body on white paper
}
# Each seat's colour (the chart's lines, the log's edges), darker on light paper so that a
# line stands out and white digits read on it.
LIGHT_SEATS = ("#8a6200", "#1d5fbf", "#b8372b", "#1e7442")


def hex_of(rgba: theme.RGBA) -> str:
    """``#d8372c`` from the theme's ``(r, g, b, a)`` in 0..1."""
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])


def luminance(code: str) -> float:
    """A colour's relative luminance (WCAG 2), from ``#rrggbb``."""
    channels = []
    for i in (1, 3, 5):
        v = int(code[i : i + 2], 16) / 255
        channels.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two colours, 1 to 21.

    >>> round(contrast("#000000", "#ffffff"))
    21
    """
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(fill: str, preferred: str) -> str:
    """``preferred`` if it reads on ``fill``, else the dark or light ink that reads best.

    >>> ink_on("#23a05a", "#ffffff")  # the kiosk's green token: its white digits too pale
    '#1e1e1e'
    """
    if contrast(preferred, fill) >= READABLE:
        return preferred
    return max((DARK_INK, LIGHT_INK), key=lambda ink: contrast(ink, fill))


def _polygon(points: tuple[tuple[float, float], ...]) -> str:
    # The theme's outlines are drawn y up (Kivy); CSS counts y down.
    return ", ".join(f"{x * 100:g}% {(1 - y) * 100:g}%" for x, y in points)


def _dark() -> dict[str, str]:
    """The kiosk's own scheme."""
    return {
        "background": hex_of(theme.BACKGROUND),
        "panel": hex_of(theme.PANEL),
        "panel-active": hex_of(theme.PANEL_ACTIVE),
        "text": hex_of(theme.TEXT),
        "text-dim": hex_of(theme.TEXT_DIM),
        "accent": hex_of(theme.ACCENT),
        "error": hex_of(theme.ERROR),
        "alert": hex_of(theme.ERROR),
        "alert-text": hex_of(theme.BACKGROUND),
        "banner": hex_of(theme.BANNER),
        "banner-text": hex_of(theme.BANNER_TEXT),
        "button": hex_of(theme.BUTTON),
        "button-text": hex_of(theme.TEXT),
        "go": "#26733f",  # the kiosk's go-button green, deep enough for its white words
        "go-text": hex_of(theme.TEXT),
        "grid": "#3a3f4c",
        "edge": "transparent",  # a cream card stands out of the dark panel by itself
    }


def _declarations(values: dict[str, str], indent: str) -> list[str]:
    return [f"{indent}--{name}: {value};" for name, value in values.items()]


def colours_css() -> str:
    """CSS custom properties, dark (the kiosk's) and light (``prefers-color-scheme:
    light``); one class a colour (``.gem-red``): fill, ink, ring, band and shape; the
    seat colours of the chart and the log (``.seat-0`` ...)."""
    pieces = {
        "card-body": hex_of(theme.CARD_BODY),
        "card-ink": hex_of(theme.CARD_INK),
        "noble-fill": hex_of(theme.NOBLE_FILL),
        "noble-ring": hex_of(theme.NOBLE_RING),
        "noble-ink": hex_of(theme.NOBLE_INK),
    }
    for level, back in enumerate(theme.CARD_BACK, start=1):
        pieces[f"back-{level}"] = hex_of(back)
        pieces[f"back-ink-{level}"] = ink_on(hex_of(back), hex_of(theme.TEXT))
    lines = [":root {", "  color-scheme: dark;"]
    lines += _declarations(pieces, "  ")
    lines += _declarations(_dark(), "  ")
    lines.append("}")
    for colour in Colour:
        key = colour.key
        fill = hex_of(theme.TOKEN_FILL[colour])
        lines.append(
            f".gem-{key} {{ --fill: {fill}; "
            f"--ink: {ink_on(fill, hex_of(theme.TOKEN_TEXT[colour]))}; "
            f"--ring: {hex_of(theme.TOKEN_RING[colour])}; "
            f"--band: {hex_of(theme.BAND[colour])}; }}"
        )
        shape = theme.GEM_SHAPES.get(colour)
        if shape is not None:
            lines.append(f".gem.gem-{key} {{ clip-path: polygon({_polygon(shape)}); }}")
    for seat, code in enumerate(theme.SEAT_HEX):
        ink = ink_on(code, hex_of(theme.BACKGROUND))
        lines.append(f".seat-{seat} {{ --seat: {code}; --seat-ink: {ink}; }}")
    lines += ["@media (prefers-color-scheme: light) {", "  :root {", "    color-scheme: light;"]
    lines += _declarations(LIGHT, "    ")
    lines.append("  }")
    for seat, code in enumerate(LIGHT_SEATS):
        ink = ink_on(code, LIGHT_INK)
        lines.append(f"  .seat-{seat} {{ --seat: {code}; --seat-ink: {ink}; }}")
    lines.append("}")
    return "\n".join(lines) + "\n"
