"""Which seats the companion played, and at which level, as the game record keeps it.

The record's ``app`` object (spec/game-record.md: a writer's extra a reader must keep)
carries ``"seats"``: one entry per seat in play order, ``"person"`` or a level (``"easy"``,
``"medium"``, ``"hard"``, ``"expert"``). A record from elsewhere may have no such entry, or a
wrong one: then every seat counts as a person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import translate as _

LEVELS = ("easy", "medium", "hard", "expert")
"""The companion's levels, weakest first, as a game's seats name them: the one list of
names (the journal, the statistics and the exports read it without the search, whose
:data:`companion.ai.players.LEVELS` gives each its player; a test checks both agree). A
new level is added here, to :func:`level_word` and to the search's players."""
KEY = "seats"
PERSON = "person"


def app_seats(levels: Sequence[str | None]) -> list[str]:
    """The ``app["seats"]`` entry for seats played by ``levels`` (``None``: a person)."""
    for level in levels:
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return [PERSON if level is None else level for level in levels]


def companion_levels(extra: Mapping[str, Any], players: int) -> tuple[str | None, ...]:
    """The level of each seat (``None``: a person) from a record's extras."""
    app = extra.get("app")
    seats = app.get(KEY) if isinstance(app, Mapping) else None
    if (
        not isinstance(seats, list)
        or len(seats) != players
        or any(s != PERSON and s not in LEVELS for s in seats)
    ):
        return (None,) * players
    return tuple(None if s == PERSON else s for s in seats)


def level_word(level: str) -> str:
    """A level in the current language (the catalogs hold each of :data:`LEVELS`)."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard"), "expert": _("expert")}
    return words.get(level, level)


def seat_title(name: str, level: str | None) -> str:
    """A seat's name off the table (history, end screen): the companion's with its level,
    ``Robo (hard)``, so that a game against it is told apart at a glance; a person's as is."""
    return name if level is None else f"{name} ({level_word(level)})"


def seat_titles(names: Sequence[str], extra: Mapping[str, Any] | Sequence[str | None]) -> list[str]:
    """Each seat's :func:`seat_title`, in play order, from a record's names and extras
    (or each seat's level, ``None`` for a person, as the games list has them)."""
    if isinstance(extra, Mapping):
        levels: Sequence[str | None] = companion_levels(extra, len(names))
    else:
        levels = tuple(extra) if len(extra) == len(names) else (None,) * len(names)
    return [seat_title(n, lv) for n, lv in zip(names, levels, strict=True)]


def companion_title(level: str, n: int = 1) -> str:
    """The companion at a level as a player's name off the table (a BG Stats play):
    ``Companion (hard)``, then ``Companion 2 (hard)`` for a second one at that level."""
    if n == 1:
        return _("Companion ({level})").format(level=level_word(level))
    return _("Companion {n} ({level})").format(n=n, level=level_word(level))
