"""Every error the companion shows a person: one root, a stable code, a lazy translation.

:class:`CompanionError` is the root: a ``code`` (a short stable word, or an
:class:`ErrorCode` for the rules and records of ``spec/game-record.md``), a ``template`` in
English and its ``params``. The ``message`` is translated when read, so the same error can
be shown in the table's language after it was raised. Below it: :class:`IllegalMove` (a
move the rules refuse), :class:`RecordError` (a document that is not a record),
:class:`Refused` (a declaration the table cannot take now), :class:`StoreError` (the
journal), :class:`ExportError` (an export file) and, in ``hardware.exc``, ``HardwareError``
(a reader, a pin; the core does not import the hardware, the hardware derives from here).

>>> err = IllegalMove(ErrorCode.RESERVE_LIMIT, "{player} holds 3 reserved cards", player="Ada")
>>> err.code.value, err.message
('reserve-limit', 'Ada holds 3 reserved cards')
>>> isinstance(StoreError("in use", code="store-busy"), CompanionError)
True
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

from .i18n import localise, translate


class ErrorCode(StrEnum):
    WRONG_PLAYER = "wrong-player"
    GAME_OVER = "game-over"
    MALFORMED_MOVE = "malformed-move"
    TAKE_INVALID = "take-invalid"
    TAKE_TWO_NEEDS_FOUR = "take-two-needs-four"
    BANK_SHORT = "bank-short"
    RESERVE_LIMIT = "reserve-limit"
    CARD_UNAVAILABLE = "card-unavailable"
    DECK_EMPTY = "deck-empty"
    CANNOT_AFFORD = "cannot-afford"
    PAYMENT_INVALID = "payment-invalid"
    REVEAL_MISSING = "reveal-missing"
    REVEAL_INVALID = "reveal-invalid"
    TOKEN_LIMIT = "token-limit"
    RETURN_INVALID = "return-invalid"
    NOBLE_CHOICE_REQUIRED = "noble-choice-required"
    NOBLE_INVALID = "noble-invalid"
    PASS_INVALID = "pass-invalid"
    # Not a move error: the document itself is not a record (replay exits 2).
    MALFORMED_RECORD = "malformed-record"


class CompanionError(Exception):
    """The root of the companion's errors: ``code``, ``template``, ``params``, ``message``."""

    def __init__(self, code: str, template: str, params: dict[str, Any] | None = None) -> None:
        self.code = code
        self.template = template
        self.params = dict(params or {})
        super().__init__(template)

    @property
    def message(self) -> str:
        """The message in the current language (see :mod:`companion.i18n`)."""
        text = translate(self.template)
        if not self.params:
            return text
        return text.format(**{k: localise(v) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.message


class IllegalMove(CompanionError):
    """A move the rules do not allow. ``code`` is stable; ``message`` says why and how to fix."""

    code: ErrorCode

    def __init__(self, code: ErrorCode, template: str, **params: Any) -> None:
        super().__init__(code, template, params)


class RecordError(CompanionError):
    """A document that is not a valid game record. ``path`` names the place (``moves[17].gems``)."""

    code: ErrorCode

    def __init__(self, path: str, template: str, *, move_shape: bool = False, **params: Any):
        self.path = path
        code = ErrorCode.MALFORMED_MOVE if move_shape else ErrorCode.MALFORMED_RECORD
        super().__init__(code, template, params)

    @property
    def message(self) -> str:
        text = super().message
        return f"{self.path}: {text}" if self.path else text


class Refused(CompanionError):
    """A declaration at the table that cannot be taken as it is (not a rule of the game:
    a setup slot already full, a card declared twice, a step not due). ``code`` is a short
    stable word such as ``already-declared``."""

    def __init__(self, code: str, template: str, **params: Any) -> None:
        super().__init__(code, template, params)


class StoreError(CompanionError):
    """The journal cannot do what was asked; ``message`` says why and what to do. ``code``:
    ``store-busy`` (another companion has it), ``read-only``, ``no-game``, ``already-stored``,
    ``out-of-step`` (a move numbered other than expected), ``store-failed``..."""

    def __init__(self, template: str, *, code: str = "store-failed", **params: Any) -> None:
        super().__init__(code, template, params)


class ExportError(CompanionError):
    """An export that could not be written; nothing half-written was left behind."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            "export-failed",
            "cannot write {path}: {reason}. Nothing was written there.",
            {"path": path, "reason": reason},
        )
