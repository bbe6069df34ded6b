"""Text for the table: drawn straight on a canvas (textures cached), measured before it
is laid out, labels that follow their box, and names shortened between their words."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.uix.label import Label

from ..scale import SCALE


@lru_cache(maxsize=2048)
def _texture(text: str, size: int, bold: bool, colour: tuple[float, ...]) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=bold, color=colour)
    label.refresh()
    return label.texture


@lru_cache(maxsize=64)
def _measurer(size: int, bold: bool) -> CoreLabel:
    return CoreLabel(font_size=size, bold=bold)


@lru_cache(maxsize=16384)
def _width(text: str, size: int, bold: bool) -> float:
    return float(_measurer(size, bold).get_extents(text)[0])


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` (by :func:`draw_text` or a label), to lay it
    out first: the app's one measure of text. Measured, not rendered: a layout measures
    many words at many sizes, and only what is drawn is rendered."""
    return _width(text, int(size), bold) if text else 0.0


def line_height(size: float, bold: bool = False) -> float:
    """How tall a line of text is drawn at ``size``: a label of n lines is n of these."""
    return float(_measurer(int(size), bold).get_extents("Ág")[1])


def wrapped_lines(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` wrapped between words in ``width`` at ``size``, as Kivy wraps a label: a
    word goes to the next line when it does not fit after the last one (a word wider than
    ``width`` stays whole, alone on its line); each paragraph starts a line."""
    space = text_width("a b", size, bold) - text_width("ab", size, bold)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line: list[str] = []
        used = 0.0
        for word in paragraph.split():
            w = text_width(word, size, bold)
            if line and used + space + w > width:
                lines.append(" ".join(line))
                line, used = [word], w
            else:
                line.append(word)
                used += (space if len(line) > 1 else 0.0) + w
        lines.append(" ".join(line))
    return lines


def widest_word(text: str, size: float, bold: bool = True) -> float:
    """The width of ``text``'s widest word at ``size``: the least width that wraps it
    between words only (Kivy breaks a word that does not fit: "Rétabli/r"). Kivy never
    breaks at a no-break space, so words joined by one count as one: Swedish "Gör om"."""
    words = re.split(r"[^\S\u00a0]+", text)
    return max((text_width(word, size, bold) for word in words if word), default=0.0)


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


def forget_drawn_text() -> None:
    """Empty the cache of drawn text (a texture per text, size and colour): its memory comes
    back, and each text is rendered afresh when next drawn."""
    _texture.cache_clear()


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
    enough, or whole at a smaller font down to the text floor (``SCALE.min_text``); else
    its longest form cut between its words (:func:`short_forms`). A single word is cut
    inside only when it does not fit at the floor (issue 34: "Cle…", "Com…" were cut while
    the whole word fitted a size down). The full name is always one tap away (the
    player's panel opens the overview)."""

    def fit(*_: Any) -> None:
        label.text_size = (label.width, label.height)
        name = getattr(label, "full_name", "") or ""
        width = max(1.0, float(label.width) - 4)
        big = most()
        floor = min(least(), big)  # a small screen's largest may be under the usual least
        hard = min(float(SCALE.min_text), floor)
        words = name.split()
        widest = max((text_width(w, 20, label.bold) for w in words), default=1.0) or 1.0
        two_lines = min(big, width * 20 / widest, label.height / 2.5)
        one_line = min(big, width * 20 / (text_width(name, 20, label.bold) or 1.0))
        if one_line >= floor or (one_line >= hard and len(words) == 1):
            label.font_size, label.text = one_line, name  # whole, on one line
            return
        if len(words) > 1 and two_lines >= hard:
            label.font_size = two_lines  # the whole name, wrapped between its words
            label.text = name
            return
        if one_line >= hard:
            label.font_size, label.text = one_line, name
            return
        forms = short_forms(name)
        between = [f for f in forms[1:] if f[:-1].rstrip() in _word_starts(name)]
        inside = [f for f in forms[1:] if f not in between]
        shown, size = name, hard
        for form in [*between, *inside]:
            need = text_width(form, 20, label.bold) or 1.0
            size = min(big, width * 20 / need)
            shown = form
            if size >= hard:
                break
        label.font_size = max(hard, size)
        label.text = shown

    label.bind(size=fit)
    label.fit_name = fit  # called again when the name changes


def _word_starts(name: str) -> set[str]:
    """The leading words (or hyphenated parts) of ``name``: where a cut leaves whole words."""
    parts = [p for p in name.replace("-", "- ").split(" ") if p]
    return {
        "".join(p if p.endswith("-") else p + " " for p in parts[:n]).strip()
        for n in range(1, len(parts))
    }
