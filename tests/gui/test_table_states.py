"""The table in motion (issue 34): each state a table of four meets in a game, reached by
taps on the real app (:mod:`.tablewalk`), measured as a person sees it: the text and
target floors, no word broken, no text out of its box, no row squashed, and nothing
covering an enabled control or the active player's name and points (:mod:`.covered`).

The default run walks the four displays that show every arrangement in French, the
longest language; the long run walks every display in every language (Portuguese's
Undo, Redo and Moves are the longest at 480x320; 480x800 is the narrowest portrait,
where "Cle…" was cut).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from kivy.uix.widget import Widget

from ui.scale import SCALE
from ui.screens.table.players import DIGIT, Holdings

from . import covered, legible, tablewalk
from .conftest import DISPLAYS, MAIN_DISPLAYS, set_window
from .driver import Driver

LANGUAGES = ("en", "fr", "it", "pt", "sv")


def squashed(root: Widget) -> list[str]:
    """Things drawn shorter than a line of text: a row of counts pressed flat."""
    found = []
    for w in root.walk(restrict=True):
        if not legible.shown(w) or not hasattr(w, "redraw"):
            continue
        if w.height < SCALE.min_text:
            found.append(f"{type(w).__name__} squashed to {w.height:.0f} px")
        if isinstance(w, Holdings) and w.gem_side() * DIGIT < SCALE.min_text - 0.5:
            # Its counts would be drawn over each other at a size under the floor.
            found.append(f"a player's counts squashed to {w.gem_side() * DIGIT:.0f} px")
    return found


def names_cut(root: Widget) -> list[str]:
    """Players' names shown cut inside a word ("Cle…", "Com…"): a name is whole, or its
    leading words (or hyphenated parts) and "…"."""
    found = []
    for w in root.walk(restrict=True):
        full = getattr(w, "full_name", None)
        if not full or not legible.shown(w):
            continue
        text = w.text
        if text == full:
            continue
        kept = text.removesuffix("…").rstrip()
        starts = {full[:i].rstrip() for i in range(1, len(full)) if full[i] == " "}
        starts |= {full[: i + 1] for i in range(len(full) - 1) if full[i] == "-"}
        if not (text.endswith("…") and kept in starts):
            found.append(f"the name {full!r} shown as {text!r}")
    return found


def checker(d: Driver, found: list[str]) -> Callable[[str], None]:
    def look(state: str) -> None:
        d.frames(2)
        root = tablewalk.top(d)
        table = d.app.table_screen
        keep: tuple[Widget, ...] = ()
        if root is table:
            keep = covered.active_labels(table)
        found.extend(legible.faults(state, root))
        found.extend(covered.faults(state, root, keep))
        size = f"{SCALE.width:.0f}x{SCALE.height:.0f}"
        found.extend(f"{state} at {size}: {f}" for f in squashed(root) + names_cut(root))

    return look


def walk_everything(tmp_path: Path, language: str, sizes: list[tuple[int, int]]) -> None:
    d = Driver(tmp_path / "data", language=language)
    found: list[str] = []
    try:
        games = tablewalk.store(d)
        for size in sizes:
            set_window(size)
            for _ in tablewalk.walk(d, games, checker(d, found)):
                pass
    finally:
        set_window(MAIN_DISPLAYS[0])
        d.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("language", "sizes"),
    [
        # The four displays in two halves, so that two workers share the walk.
        pytest.param("fr", MAIN_DISPLAYS[:2], id="fr-800x480-720x1280"),
        pytest.param("fr", MAIN_DISPLAYS[2:], id="fr-480x320-1920x1080"),
    ],
)
def test_every_state_of_the_table_reads_and_nothing_covers_a_control(
    tmp_path: Path, language: str, sizes: list[tuple[int, int]]
) -> None:
    walk_everything(tmp_path, language, sizes)


@pytest.mark.long
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_state_on_every_display_in_every_language(tmp_path: Path, language: str) -> None:
    walk_everything(tmp_path, language, DISPLAYS)
