"""What a person at the table sees, measured: text sizes, tap targets, words broken or cut,
texts and shapes over each other, record ids on screen. Floors come from the window
(``ui.scale``): 14 px text and 44 px targets, 12 px and 36 px on a 3.5-inch screen.

Text comes two ways: Label widgets, and numbers drawn straight on a canvas. Both go
through Kivy's text provider, so :func:`rendered` records what the provider renders (its
text and font size) while each drawn widget draws itself again.

A fault names the widget and what is wrong; :func:`faults` adds the screen, the state and
the window size, so a failure says where to look.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kivy.core.text import LabelBase
from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ui.scale import SCALE
from ui.widgets import text as drawn_text

RECORD_ID = re.compile(r"\b([123][WUGRK]\d{1,2}|N(10|[1-9]))\b")


@contextmanager
def rendered() -> Iterator[list[tuple[str, float]]]:
    """Every text Kivy's provider renders meanwhile, with its font size in pixels."""
    seen: list[tuple[str, float]] = []
    original = LabelBase.refresh

    def refresh(self: Any) -> None:
        seen.append((self.text, float(self.options["font_size"])))
        original(self)

    LabelBase.refresh = refresh  # type: ignore[method-assign]
    drawn_text.forget_drawn_text()  # drawn text is cached: make it render again
    try:
        yield seen
    finally:
        LabelBase.refresh = original  # type: ignore[method-assign]


def shown(widget: Widget) -> bool:
    """On screen: not hidden, not collapsed, inside the window."""
    node: Any = widget
    while node is not None and node is not Window:
        if getattr(node, "opacity", 1) == 0:
            return False
        node = node.parent
    if widget.width < 1 or widget.height < 1:
        return False
    x, y = widget.to_window(widget.x, widget.y)
    return x < Window.width and y < Window.height and x + widget.width > 0 and y + widget.height > 0


def broken(label: Label) -> str | None:
    """A word too wide for the label's wrapping width, which Kivy breaks mid-word
    ("Rétabli / r"); ``None`` when every word fits."""
    for word in label.text.split():
        if "[" in word:  # markup: not measured as drawn
            continue
        if drawn_text.widest_word(word, label.font_size, label.bold) > label.text_size[0] + 1:
            return word
    return None


def cut(label: Label) -> bool:
    """Text drawn past its label's box (Kivy draws it over its neighbours), or shortened
    with "..." inside a word."""
    if "..." in label.text and label.shorten:
        return True
    label.texture_update()
    tw, th = label.texture_size
    return bool(tw > label.width + 2 or th > label.height + 2)


def _box(w: Widget) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _leaf(w: Widget) -> bool:
    """A widget a person sees as one thing: a text, a button, a drawn picture."""
    if isinstance(w, Label) and not isinstance(w, ButtonBehavior):
        return bool(w.text.strip())  # an empty label shows nothing
    return isinstance(w, ButtonBehavior) or hasattr(w, "redraw")


def _seen(w: Widget) -> tuple[float, float, float, float]:
    """The part of ``w``'s box a person sees: a scrolled list shows what is inside it."""
    x0, y0, x1, y1 = _box(w)
    for a in _ancestors(w):
        if isinstance(a, ScrollView):
            p0, q0, p1, q1 = _box(a)
            x0, y0, x1, y1 = max(x0, p0), max(y0, q0), min(x1, p1), min(y1, q1)
    return x0, y0, x1, y1


def overlaps(items: list[Widget]) -> list[str]:
    """Pairs of shown things drawn over each other (neither inside the other's tree)."""
    boxes = [(w, _seen(w)) for w in items]
    found: list[str] = []
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1 :]:
            if _related(a, b):
                continue
            dx = min(ba[2], bb[2]) - max(ba[0], bb[0])
            dy = min(ba[3], bb[3]) - max(ba[1], bb[1])
            if dx > 2 and dy > 2:
                found.append(f"{_name(a)} over {_name(b)}")
    return found


def _ancestors(w: Widget) -> Iterator[Widget]:
    node: Any = w.parent
    while node is not None and node is not Window:
        yield node
        node = node.parent


def _related(a: Widget, b: Widget) -> bool:
    node: Any = a.parent
    while node is not None and node is not Window:
        if node is b:
            return True
        node = node.parent
    node = b.parent
    while node is not None and node is not Window:
        if node is a:
            return True
        node = node.parent
    return False


def _name(w: Widget) -> str:
    text = getattr(w, "text", "")
    return f"{type(w).__name__}{' ' + repr(text[:30]) if text else ''}"


def spills(items: list[Widget]) -> list[tuple[Widget, str]]:
    """Things drawn past the window's edge or past the box of the layout that holds them."""
    found: list[tuple[Widget, str]] = []
    for w in items:
        if any(isinstance(a, ScrollView) for a in _ancestors(w)):
            continue  # it scrolls into view
        x0, y0, x1, y1 = _box(w)
        if x0 < -2 or y0 < -2 or x1 > Window.width + 2 or y1 > Window.height + 2:
            found.append((w, "the window"))
            continue
        parent = w.parent
        if (
            isinstance(parent, Widget)
            and parent is not Window
            and not isinstance(parent, ModalView)
        ):
            p0, q0, p1, q1 = _box(parent)
            if x0 < p0 - 2 or y0 < q0 - 2 or x1 > p1 + 2 or y1 > q1 + 2:
                found.append((w, type(parent).__name__))
    return found


def measure(
    root: Widget, overlay: tuple[Widget, ...] = ()
) -> tuple[list[str], list[tuple[str, float]]]:
    """What is too small, broken, cut or overlapping under ``root``, and any record id
    (``1U5``, ``N8``) shown to the players: a list of faults; and the numbers drawn in
    widgets that mark themselves ``across`` (read across the table), with their sizes.
    ``overlay``: widgets drawn over the rest on purpose (a notice), not counted as
    overlapping."""
    faults: list[str] = []
    across: list[tuple[str, float]] = []
    text_floor = SCALE.min_text
    target_floor = SCALE.min_target
    leaves: list[Widget] = []
    for w in root.walk(restrict=True):
        if not shown(w):
            continue
        if _leaf(w) and not any(w is o or _related(w, o) for o in overlay):
            leaves.append(w)
        if isinstance(w, ButtonBehavior) and (
            w.width < target_floor - 0.5 or w.height < target_floor - 0.5
        ):
            faults.append(f"target {_name(w)} {tuple(round(v) for v in w.size)}")
        if isinstance(w, Label) and w.text.strip():
            if w.font_size < text_floor - 0.01:
                faults.append(f"label {w.text!r} at {w.font_size:.1f} px")
            if w.text_size[0] and (word := broken(w)):
                faults.append(f"{word!r} broken across lines in {w.text!r}")
            if cut(w):
                faults.append(f"{w.text!r} cut or spilling out of its box {tuple(w.size)}")
            if RECORD_ID.search(w.text):
                faults.append(f"a record id in {w.text!r}")
        if isinstance(w, ScrollView) and not -0.01 <= w.scroll_y <= 1.01:
            # Nothing in view, or a list flying back into it: no finger is on the glass.
            faults.append(f"{_name(w)} scrolled past its end (scroll_y {w.scroll_y:.2f})")
        redraw = getattr(w, "redraw", None)
        if redraw is not None:
            with rendered() as seen:
                redraw()
            for text, size in seen:
                if text.strip() and size < text_floor - 0.01:
                    faults.append(f"drawn {text!r} at {size:.1f} px in {type(w).__name__}")
                if RECORD_ID.search(text):
                    faults.append(f"a record id drawn: {text!r}")
                if getattr(w, "across", False) and text.replace("/", "").isdigit():
                    across.append((text, size))
    faults += [f"overlap: {o}" for o in overlaps(leaves)]
    faults += [f"{_name(w)} spills out of {where}" for w, where in spills(leaves)]
    return faults, across


def modal_root() -> Widget | None:
    opened = [w for w in Window.children if isinstance(w, ModalView) and w._is_open]
    return opened[0] if opened else None


def faults(where: str, root: Widget, overlay: tuple[Widget, ...] = ()) -> list[str]:
    """:func:`measure`'s faults, each naming ``where`` (screen and state) and the size."""
    found, _ = measure(root, overlay)
    size = f"{Window.width}x{Window.height}"
    return [f"{where} at {size}: {f}" for f in found]
