"""Every error the companion shows a person: one root, a stable code, a lazy translation.

:class:`CompanionError` is the root: a ``code`` (a member of :class:`ErrorCode`, a short
stable word listed in docs/game-record.md; a device's is a ``hardware.exc.DeviceCode``), a
``template`` in English and its ``params``. The ``message`` is translated when read, so the
same error can be shown in the table's language after it was raised. Below it:
:class:`IllegalMove` (a move the rules refuse), :class:`RecordError` (a document that is
not a record), :class:`Refused` (a declaration the table cannot take now),
:class:`StoreError` (the journal), :class:`ExportError` (an export file) and, in
``hardware.exc``, ``HardwareError`` (a reader, a pin; the core does not import the
hardware, the hardware derives from here).

>>> err = IllegalMove(ErrorCode.RESERVE_LIMIT, "{player} holds 3 reserved cards", player="Ada")
>>> err.code.value, err.message
('reserve-limit', 'Ada holds 3 reserved cards')
>>> isinstance(StoreError("in use", code=ErrorCode.STORE_BUSY), CompanionError)
True
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import Any

from .i18n import N_, Later, localise, translate


class ErrorCode(StrEnum):
    """Every code the core gives an error, each a stable word (docs/game-record.md): the
    rules and records first, then the table's refusals, the journal and the exports. The
    devices' codes are ``hardware.exc.DeviceCode``. Compare a code with its member."""

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
    # Not the rules: what the table refuses to take as declared (Refused).
    PLAYERS = "players"
    ALREADY_DECLARED = "already-declared"
    UNKNOWN = "unknown"
    SETUP_FULL = "setup-full"
    SETUP_INCOMPLETE = "setup-incomplete"
    NO_SWAP = "no-swap"
    NOTHING_CHOSEN = "nothing-chosen"
    NOTHING_DUE = "nothing-due"
    INCOMPLETE = "incomplete"
    NOT_A_TAKE = "not-a-take"
    # The games journal (StoreError).
    STORE_FAILED = "store-failed"
    STORE_BUSY = "store-busy"
    READ_ONLY = "read-only"
    NOT_A_FILE = "not-a-file"
    DISK_FULL = "disk-full"
    DAMAGED_JOURNAL = "damaged-journal"
    FOREIGN_JOURNAL = "foreign-journal"
    NEWER_JOURNAL = "newer-journal"
    OLDER_JOURNAL = "older-journal"
    NO_GAME = "no-game"
    ALREADY_STORED = "already-stored"
    OUT_OF_STEP = "out-of-step"
    UNREADABLE_GAME = "unreadable-game"
    # A setting's text that cannot be read (TextError): a rotation, a window's size.
    BAD_SETTING = "bad-setting"
    # A link that is not a BG Stats play (TextError).
    NOT_A_PLAY_LINK = "not-a-play-link"
    # An export file (ExportError, ExportRefused), and the benchmark's --baseline.
    EXPORT_FAILED = "export-failed"
    EXPORT_REFUSED = "export-refused"
    BAD_BASELINE = "bad-baseline"


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
    """A document that is not a valid game record. ``path`` names the place in the JSON
    (``moves[17].gems``); the message says it as a person counts (``move 18 (gems)``)."""

    code: ErrorCode

    def __init__(self, path: str, template: str, *, move_shape: bool = False, **params: Any):
        self.path = path
        code = ErrorCode.MALFORMED_MOVE if move_shape else ErrorCode.MALFORMED_RECORD
        super().__init__(code, template, params)

    @property
    def message(self) -> str:
        text = super().message
        return f"{place(self.path)}: {text}" if self.path else text


class FileUnread(RecordError):
    """The file itself could not be read as a record (it does not exist, it is a folder,
    it is too big...): its message says so whole, never as "not a valid game record"."""


_MOVE_PATH = re.compile(r"moves\[(\d+)\](?:\.(.+))?")


def place(path: str) -> str:
    """Where a record is wrong, as a person counts: moves from 1, not the JSON index.

    >>> place("moves[17].gems"), place("moves[0]"), place("setup.nobles")
    ('move 18 (gems)', 'move 1', 'setup.nobles')
    """
    found = _MOVE_PATH.fullmatch(path)
    if found is None:
        return path
    n = int(found.group(1)) + 1
    if found.group(2):
        return translate("move {n} ({field})").format(n=n, field=found.group(2))
    return translate("move {n}").format(n=n)


class TextError(CompanionError, ValueError):
    """A text that cannot be read as what it should be: a move or tokens in text form
    (:attr:`ErrorCode.MALFORMED_MOVE`), a setting (:attr:`ErrorCode.BAD_SETTING`), a
    reader's kind... ``message`` names the word that is wrong and what would do. Also a
    ``ValueError``, as Python's own readers raise (``int("x")``)."""

    def __init__(self, code: str, template: str, **params: Any) -> None:
        super().__init__(code, template, params)


class Refused(CompanionError):
    """A declaration at the table that cannot be taken as it is (not a rule of the game:
    a setup slot already full, a card declared twice, a step not due). ``code`` says which,
    such as :attr:`ErrorCode.ALREADY_DECLARED`."""

    code: ErrorCode

    def __init__(self, code: ErrorCode, template: str, **params: Any) -> None:
        super().__init__(code, template, params)


class StoreError(CompanionError):
    """The journal cannot do what was asked; ``message`` says why and what to do. ``code``:
    :attr:`~ErrorCode.STORE_BUSY` (another companion has it), ``READ_ONLY``, ``NO_GAME``,
    ``ALREADY_STORED``, ``OUT_OF_STEP`` (a move numbered other than expected),
    ``STORE_FAILED``..."""

    code: ErrorCode

    def __init__(
        self, template: str, *, code: ErrorCode = ErrorCode.STORE_FAILED, **params: Any
    ) -> None:
        super().__init__(code, template, params)


class ExportError(CompanionError):
    """An export that could not be written; nothing half-written was left behind."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            ErrorCode.EXPORT_FAILED,
            "cannot write {path}: {reason}. Nothing was written there.",
            {"path": path, "reason": reason},
        )


class ExportRefused(ExportError):
    """An export file whose name in the folder is taken by a link, a folder, a device...
    (``companion.files.NotAFile``): that file alone is not written, and an export of many
    files goes on with the others."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(path, reason)
        self.code = ErrorCode.EXPORT_REFUSED


# The json module's reasons, said for a person (json speaks English only).
_JSON_REASONS = {
    "Expecting value": N_("a value is missing (a stray comma, or the file is empty)"),
    "Expecting ',' delimiter": N_("a comma is missing between two items"),
    "Expecting ':' delimiter": N_("a colon is missing after a name"),
    "Expecting property name enclosed in double quotes": N_(
        "a name in double quotes is expected (a stray comma before a closing brace?)"
    ),
    "Unterminated string starting at": N_("a text is not closed by a double quote"),
    "Invalid control character at": N_("a text holds a control character (a tab or a line end)"),
    "Invalid \\escape": N_("a backslash starts an escape that does not exist"),
    "Invalid \\uXXXX escape": N_("a \\u escape needs four hexadecimal digits"),
    "Extra data": N_("something follows the end of the record"),
    "Unexpected UTF-8 BOM (decode using utf-8-sig)": N_("the file starts with a byte-order mark"),
}


def json_reason(message: str) -> Later | str:
    """Why a text is not JSON, in the language of whoever reads the error.

    >>> str(json_reason("Expecting ',' delimiter"))
    'a comma is missing between two items'
    """
    known = _JSON_REASONS.get(message)
    return Later(known) if known else message
