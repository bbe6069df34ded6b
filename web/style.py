"""The page's colours and gem shapes, from the kiosk's own (:mod:`ui.theme`, which imports
no Kivy): one source, so a red token on a phone is the red token of the touchscreen."""

from __future__ import annotations

from companion.engine.tokens import Colour
from ui import theme


def hex_of(rgba: theme.RGBA) -> str:
    """``#d8372c`` from the theme's ``(r, g, b, a)`` in 0..1."""
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])


def _polygon(points: tuple[tuple[float, float], ...]) -> str:
    # The theme's outlines are drawn y up (Kivy); CSS counts y down.
    return ", ".join(f"{x * 100:g}% {(1 - y) * 100:g}%" for x, y in points)


def colours_css() -> str:
    """CSS custom properties and one class a colour (``.gem-red``): fill, text, ring, band
    and shape; the seat colours of the chart (``.seat-0`` ...)."""
    lines = [":root {"]
    for name, value in (
        ("background", theme.BACKGROUND),
        ("panel", theme.PANEL),
        ("panel-active", theme.PANEL_ACTIVE),
        ("card-body", theme.CARD_BODY),
        ("card-ink", theme.CARD_INK),
        ("text", theme.TEXT),
        ("text-dim", theme.TEXT_DIM),
        ("accent", theme.ACCENT),
        ("error", theme.ERROR),
        ("ok", theme.OK),
        ("banner", theme.BANNER),
        ("banner-text", theme.BANNER_TEXT),
        ("noble-fill", theme.NOBLE_FILL),
        ("noble-ring", theme.NOBLE_RING),
        ("noble-ink", theme.NOBLE_INK),
        ("button", theme.BUTTON),
    ):
        lines.append(f"  --{name}: {hex_of(value)};")
    for level, back in enumerate(theme.CARD_BACK, start=1):
        lines.append(f"  --back-{level}: {hex_of(back)};")
    lines.append("}")
    for colour in Colour:
        key = colour.key
        lines.append(
            f".gem-{key} {{ --fill: {hex_of(theme.TOKEN_FILL[colour])}; "
            f"--ink: {hex_of(theme.TOKEN_TEXT[colour])}; "
            f"--ring: {hex_of(theme.TOKEN_RING[colour])}; "
            f"--band: {hex_of(theme.BAND[colour])}; }}"
        )
        shape = theme.GEM_SHAPES.get(colour)
        if shape is not None:
            lines.append(f".gem.gem-{key} {{ clip-path: polygon({_polygon(shape)}); }}")
    for seat, code in enumerate(theme.SEAT_HEX):
        lines.append(f".seat-{seat} {{ --seat: {code}; }}")
    return "\n".join(lines) + "\n"
