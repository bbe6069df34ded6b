"""Nothing covers what a player needs (issue 34, item 1): each enabled tap target in view is
what a touch at its middle reaches, and nothing is drawn over the active player's name
and points.

A touch is followed as Kivy dispatches it: the window's children topmost first (the last
added is on top), then each widget's children topmost first. Kivy hands a touch on to
what is below a widget that does not take it, but a person sees the top one: so the walk
stops at the first thing *drawn* there (a text, a button, a picture, a framed box), not at
the first that would take the touch. A message drawn over the Take button is a fault even
though a touch would go through it.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .legible import shown

# Each widget's corner in the window, kept while :func:`faults` looks at one still frame:
# the walk asks it of the same widgets for every point, and ``to_window`` climbs the tree.
_corners: dict[int, tuple[float, float]] | None = None


def _corner(w: Widget) -> tuple[float, float]:
    if _corners is None:
        x, y = w.to_window(w.x, w.y)
        return x, y
    found = _corners.get(id(w))
    if found is None:
        x, y = w.to_window(w.x, w.y)
        found = _corners[id(w)] = (x, y)
    return found


def _inside(w: Widget, x: float, y: float) -> bool:
    wx, wy = _corner(w)
    width: float = w.width
    height: float = w.height
    return wx <= x <= wx + width and wy <= y <= wy + height


def _drawn(w: Widget) -> bool:
    """Whether ``w`` itself puts something on the screen (not only its children)."""
    if isinstance(w, ButtonBehavior | ModalView):
        return True
    if isinstance(w, Label):
        return bool(w.text.strip())
    if hasattr(w, "redraw"):
        return True
    return any(len(c.children) for c in (w.canvas.before, w.canvas, w.canvas.after))


def reached(x: float, y: float, root: Any = None) -> Widget | None:
    """The topmost widget drawn at the window's point (``x``, ``y``)."""
    for child in list((root or Window).children):
        found = _reach(child, x, y)
        if found is not None:
            return found
    return None


def _reach(w: Widget, x: float, y: float) -> Widget | None:
    if getattr(w, "opacity", 1) == 0:
        return None
    if isinstance(w, ModalView):
        if not w._is_open:
            return None
        # An open dialog takes every touch: what is under it is out of reach.
        for child in list(w.children):
            found = _reach(child, x, y)
            if found is not None:
                return found
        return w
    inside = _inside(w, x, y)
    if isinstance(w, ScrollView) and not inside:
        return None  # what scrolled out of its view is not there
    for child in list(w.children):
        found = _reach(child, x, y)
        if found is not None:
            return found
    return w if inside and _drawn(w) and w.width >= 1 and w.height >= 1 else None


def _within(w: Widget | None, target: Widget) -> bool:
    node: Any = w
    while node is not None and node is not Window:
        if node is target:
            return True
        node = node.parent
    return False


def _points(w: Widget) -> list[tuple[float, float]]:
    """The middle of ``w`` and four points halfway to its corners: a finger's landing."""
    x, y = _corner(w)
    fx = (0.5, 0.25, 0.75, 0.25, 0.75)
    fy = (0.5, 0.25, 0.25, 0.75, 0.75)
    return [(x + w.width * a, y + w.height * b) for a, b in zip(fx, fy, strict=True)]


def _name(w: Widget | None) -> str:
    if w is None:
        return "nothing"
    text = str(getattr(w, "text", "") or "")
    return f"{type(w).__name__}{' ' + repr(text[:30]) if text else ''}"


def targets(root: Widget) -> list[Widget]:
    """Every enabled tap target under ``root`` a person can see."""
    return [
        w
        for w in root.walk(restrict=True)
        if isinstance(w, ButtonBehavior) and not w.disabled and shown(w) and _in_view(w)
    ]


def _in_view(w: Widget) -> bool:
    """Not scrolled out of its list's view."""
    x0, y0 = _corner(w)
    return _seen_at(w, x0 + w.width / 2, y0 + w.height / 2)


def _seen_at(w: Widget, x: float, y: float) -> bool:
    """Whether the window's point (``x``, ``y``) of ``w`` is inside every list's view
    that holds it: a row half scrolled out is touched on its half in view."""
    node: Any = w.parent
    while node is not None and node is not Window:
        if isinstance(node, ScrollView) and not _inside(node, x, y):
            return False
        node = node.parent
    return True


def faults(where: str, root: Widget, keep_in_sight: tuple[Widget, ...] = ()) -> list[str]:
    """Each enabled target under ``root`` whose middle a touch does not reach, and each of
    ``keep_in_sight`` (the active player's name and points) with anything drawn over it."""
    global _corners
    _corners = {}
    try:
        return _faults(where, root, keep_in_sight)
    finally:
        _corners = None


def _faults(where: str, root: Widget, keep_in_sight: tuple[Widget, ...]) -> list[str]:
    size = f"{Window.width}x{Window.height}"
    found: list[str] = []
    for target in targets(root):
        for x, y in _points(target)[:1] if _small(target) else _points(target):
            if not _seen_at(target, x, y):
                continue
            top = reached(x, y)
            if not _within(top, target):
                found.append(
                    f"{where} at {size}: {_name(target)} covered by {_name(top)}"
                    f" at ({x:.0f}, {y:.0f})"
                )
                break
    for widget in keep_in_sight:
        if not shown(widget):
            continue
        for x, y in _points(widget):
            if not _seen_at(widget, x, y):
                continue
            top = reached(x, y)
            if not _within(top, widget):
                found.append(f"{where} at {size}: {_name(widget)} covered by {_name(top)}")
                break
    return found


def active_labels(table: Any) -> tuple[Widget, ...]:
    """The active player's name and points, where they are shown: its panel, or its row
    of the players' grid (the 3.5-inch screen beside a docked move)."""
    if table.session is None or table.game.over:
        return ()
    seat = table.game.to_act
    panel = table.players.panels[seat]
    if panel.parent is not None:
        return (panel.name_label, panel.points_label)
    grid = table.players.grid
    rows = [r for r in grid.rows if r.parent is not None and r.seat_index == seat]
    if grid.parent is not None and rows:
        return (rows[0].name_label, rows[0].points_label)
    return ()


def _small(w: Widget) -> bool:
    """A target too small to sample around its middle (its own parts fill it)."""
    return bool(w.width < 8 or w.height < 8)
