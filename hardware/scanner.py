"""A scanned tag becomes the card the table is declaring, exactly as if it had been tapped.

The target is what the table is doing: a :class:`~companion.journal.declaring.NewGame` (its
``declare``: a setup reveal) or a :class:`~companion.journal.declaring.Turn` (its ``declare_card``:
the card bought or reserved, or the card revealed to refill a slot); or any function that
takes a card id. Every check is the engine's: a scan that fits no legal move is reported
with the engine's reason and changes nothing.

Threads: :meth:`CardScanner.scan` must run on the app's thread (the game's SQLite
connection belongs to it). Give the reader :meth:`CardScanner.feed`, which hands the scan
over with ``dispatch``; the Kivy app passes
``dispatch=lambda f: Clock.schedule_once(lambda dt: f())``.

>>> from hardware.tagmap import TagMap
>>> from companion.journal.declaring import NewGame
>>> draft = NewGame(["Ada", "Ben"])
>>> scanner = CardScanner(TagMap(tags={"0A1B2C3D4E": "1W1"}), draft)
>>> print(scanner.scan("0A1B2C3D4E").message)
1W1 is on the table
>>> print(scanner.scan("0A1B2C3D4E").message)
1W1 is already on the table
>>> print(scanner.scan("FFFFFFFFFF").message)
tag FFFFFFFFFF is not enrolled: enroll it in Settings or with splendor-companion rfid enroll
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from companion.errors import IllegalMove, Refused
from companion.i18n import _

from .tagmap import TagMap, normalise

log = logging.getLogger(__name__)

Declare = Callable[[str], object]
Dispatch = Callable[[Callable[[], None]], object]


class ScanOutcome(StrEnum):
    """What a scan did (see :class:`ScanResult`); equal to its word, as before."""

    DECLARED = "declared"
    NOT_ENROLLED = "not-enrolled"
    REFUSED = "refused"
    ILLEGAL = "illegal"
    IDLE = "idle"


DECLARED, NOT_ENROLLED, REFUSED, ILLEGAL, IDLE = ScanOutcome


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What a scan did. ``outcome`` is one of:

    - ``declared``: the card was declared; ``result`` is what the target returned
      (``buy``, ``reserve``, ``reveal``, ``choose`` for a turn; the id for a setup);
    - ``not-enrolled``: the tag is in no tag map entry; nothing changed;
    - ``illegal``: the engine refused it (``error`` is the :class:`IllegalMove`);
    - ``refused``: not a rule but the table's state (``error`` is the :class:`Refused`:
      the card is on the table already, a step is not due...);
    - ``idle``: nothing is being declared right now (no target).
    """

    tag: str
    card: str | None
    outcome: ScanOutcome
    result: object = None
    error: IllegalMove | Refused | None = None

    @property
    def ok(self) -> bool:
        return self.outcome == DECLARED

    @property
    def message(self) -> str:
        """What happened, for the screen, in the current language."""
        if self.outcome == NOT_ENROLLED:
            return _(
                "tag {tag} is not enrolled: enroll it in Settings or with "
                "splendor-companion rfid enroll"
            ).format(tag=self.tag)
        if self.error is not None:
            return self.error.message
        if self.outcome == IDLE:
            return _("{card} scanned, but no card is being declared now").format(card=self.card)
        if self.result == "buy":
            return _("{card}: buy it").format(card=self.card)
        if self.result == "reserve":
            return _("{card}: reserve it").format(card=self.card)
        if self.result == "reveal":
            return _("{card} refills the market").format(card=self.card)
        if self.result == "choose":
            return _("{card}: buy it or reserve it?").format(card=self.card)
        return _("{card} is on the table").format(card=self.card)


def declare_function(target: object) -> Declare:
    """The declaring function of ``target``: its ``declare_card`` (a turn), its ``declare``
    (a setup), or ``target`` itself when it is a function."""
    for name in ("declare_card", "declare"):
        method = getattr(target, name, None)
        if callable(method):
            return cast(Declare, method)
    if callable(target):
        return cast(Declare, target)
    raise TypeError(f"{target!r} cannot declare a card")


class CardScanner:
    """Turns tags into declarations on :attr:`target` and reports each :class:`ScanResult`.

    ``target`` may change as the table moves on (the setup, then each turn); ``None``
    while nothing is being declared. ``on_result`` is called on the thread that scans.
    """

    def __init__(
        self,
        tags: TagMap,
        target: object | None = None,
        on_result: Callable[[ScanResult], object] | None = None,
        dispatch: Dispatch | None = None,
    ) -> None:
        self.tags = tags
        self.target = target
        self.on_result = on_result
        self.dispatch = dispatch

    def feed(self, tag: str) -> None:
        """For the reader's ``on_tag``: scan on the app's thread, through ``dispatch``."""
        if self.dispatch is None:
            self.scan(tag)
        else:
            self.dispatch(lambda: self._scan_quietly(tag))

    def _scan_quietly(self, tag: str) -> None:
        try:
            self.scan(tag)
        except Exception:  # never let a scan take the app's loop down
            log.exception("scanning tag %s failed", tag)

    def scan(self, tag: str) -> ScanResult:
        """Declare the card of ``tag`` to the target; report and return what happened."""
        tag = normalise(tag)
        card = self.tags.card(tag)
        if card is None:
            result = ScanResult(tag, None, NOT_ENROLLED)
        elif self.target is None:
            result = ScanResult(tag, card, IDLE)
        else:
            declare = declare_function(self.target)
            try:
                value = declare(card)
            except IllegalMove as err:
                result = ScanResult(tag, card, ILLEGAL, error=err)
            except Refused as err:
                result = ScanResult(tag, card, REFUSED, error=err)
            else:
                result = ScanResult(tag, card, DECLARED, result=value)
        if self.on_result is not None:
            self.on_result(result)
        return result
