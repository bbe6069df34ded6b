"""Which RFID tag is on which card: the file enrollment builds and the scanner reads.

The map lives in the data folder (:func:`companion.paths.data_dir`) as ``rfid-tags.json``::

    {"format": "splendor-companion/rfid-tags", "version": 1,
     "tags": {"0A1B2C3D4E": "1W1", "04A32B1C": "N3"}}

Tags are kept in upper case, as :mod:`hardware.rfid` reports them. A tag names one card
(or noble); a card has one tag, and enrolling it again with another tag replaces the old
one. Every change is written at once, atomically (:func:`companion.files.write_atomic`).

>>> import tempfile, pathlib
>>> tags = TagMap(pathlib.Path(tempfile.mkdtemp()) / "rfid-tags.json")
>>> tags.assign("0a1b2c3d4e", "1W1")
True
>>> tags.card("0A1B2C3D4E"), tags.tag_of("1W1"), len(tags.missing(level=1))
('1W1', '0A1B2C3D4E', 39)
>>> tags.assign("0A1B2C3D4E", "1W2")
Traceback (most recent call last):
...
hardware.exc.TagConflict: tag 0A1B2C3D4E is already on card 1W1: scan another tag for 1W2
"""

from __future__ import annotations

import json
import os
import stat
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from companion.engine.cards import CARDS, NOBLES
from companion.files import NotAFile, check_file, kind_of, write_atomic
from companion.i18n import _, os_reason
from companion.paths import data_dir

from .exc import DeviceCode, TagConflict, TagMapError

FILE_NAME = "rfid-tags.json"
FORMAT = "splendor-companion/rfid-tags"
VERSION = 1
MAX_BYTES = 1 << 20  # a full map is about 5 KB: a larger file is no tag map
MAX_TAG = 64  # characters of a tag id (the longest, 20 hex digits, with room)
_ORDER = {item: i for i, item in enumerate([*CARDS, *NOBLES])}


def default_path(setting: str | os.PathLike[str] | None = None) -> Path:
    """``rfid-tags.json`` in the data folder (``SPLENDOR_DATA_DIR`` first, as for games)."""
    return data_dir(setting) / FILE_NAME


def normalise(tag: str) -> str:
    return tag.strip().upper()


class TagMap:
    """Tag ids to card (or noble) ids, saved to :attr:`path` after each change.

    Safe to read from the reader's thread while the app's thread enrolls.
    """

    def __init__(self, path: Path | None = None, tags: dict[str, str] | None = None) -> None:
        self.path = path
        self._tags: dict[str, str] = {}
        self._lock = threading.Lock()
        for tag, card in (tags or {}).items():
            self._tags[normalise(tag)] = card

    @classmethod
    def load(cls, path: Path | None = None) -> TagMap:
        """The map in ``path`` (default :func:`default_path`); empty if there is no file yet.

        Raises :class:`TagMapError` when the file is there but is not a tag map.
        """
        path = Path(path) if path is not None else default_path()
        try:
            # Only a regular file is read: a pipe there would hold the app before its
            # start screen for ever (opened without waiting, then refused), a link is
            # refused as the map's saving refuses it.
            check_file(path)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as file:
                found = os.fstat(file.fileno()).st_mode
                if not stat.S_ISREG(found):
                    raise NotAFile(path, kind_of(found))
                data = file.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return cls(path)
        except OSError as err:
            raise TagMapError(
                DeviceCode.UNREADABLE,
                _("cannot read {file}: {reason}").format(file=path, reason=os_reason(err)),
            ) from err
        if len(data) > MAX_BYTES:
            raise _invalid(path, _("it is larger than a tag map can be"))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise _invalid(path, _("it is not UTF-8 text")) from None
        try:
            doc = json.loads(text)
        except RecursionError:
            raise _invalid(path, _("it is nested too deep to be a tag map")) from None
        except ValueError as err:
            raise _invalid(path, str(err)) from err
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise _invalid(path, _("it is not a tag map of splendor-companion"))
        if doc.get("version") != VERSION:
            raise _invalid(
                path, _("version {version} is not supported").format(version=doc.get("version"))
            )
        tags = doc.get("tags")
        if not isinstance(tags, dict):
            raise _invalid(path, _('"tags" must be an object of tag ids to card ids'))
        seen: dict[str, str] = {}
        for tag, card in tags.items():
            if not normalise(tag) or len(tag) > MAX_TAG:
                raise _invalid(path, _("a tag id is empty or too long"))
            if not isinstance(card, str) or card not in _ORDER:
                raise _invalid(
                    path,
                    _("tag {tag} names {card}, which is not a card").format(tag=tag, card=card),
                )
            if card in seen:
                raise _invalid(
                    path,
                    _("card {card} has two tags, {a} and {b}").format(
                        card=card, a=seen[card], b=tag
                    ),
                )
            seen[card] = tag
        return cls(path, tags)

    @classmethod
    def load_or_set_aside(cls, path: Path | None = None) -> tuple[TagMap, str | None]:
        """The map in ``path``, as :meth:`load`; a file there that is not a tag map
        (damaged, foreign, hostile) is renamed beside it (``rfid-tags.json.damaged-<time>``)
        and a new empty map takes its place: the app starts whatever the file holds. The
        second value is the one line that says so (``None`` when nothing was set aside).
        A file that cannot be read at all is left as it is (still ``TagMapError``)."""
        path = Path(path) if path is not None else default_path()
        try:
            return cls.load(path), None
        except TagMapError as err:
            if err.code != DeviceCode.INVALID:
                raise
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
            kept = path.with_name(f"{path.name}.damaged-{stamp}")
            n = 1
            while kept.exists():
                n += 1
                kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
            try:
                path.rename(kept)
            except OSError:
                return cls(), err.message  # left where it is: nothing enrolled is saved
            said = _("{reason}: it was kept as {kept} and a new tag map started.").format(
                reason=err.message, kept=kept.name
            )
            return cls(path), said

    # ------------------------------------------------------------------ reading

    def card(self, tag: str) -> str | None:
        """The card (or noble) of ``tag``; ``None`` when the tag is not enrolled."""
        with self._lock:
            return self._tags.get(normalise(tag))

    def tag_of(self, card: str) -> str | None:
        with self._lock:
            for tag, item in self._tags.items():
                if item == card:
                    return tag
        return None

    def missing(self, level: int | None = None) -> list[str]:
        """The cards without a tag (of ``level`` only, if given), in the order of the game."""
        with self._lock:
            tagged = set(self._tags.values())
        return [
            card.id
            for card in CARDS.values()
            if card.id not in tagged and (level is None or card.level == level)
        ]

    def items(self) -> list[tuple[str, str]]:
        """``(tag, card)`` pairs in the order of the cards."""
        with self._lock:
            return sorted(self._tags.items(), key=lambda pair: _ORDER[pair[1]])

    def __len__(self) -> int:
        with self._lock:
            return len(self._tags)

    def __iter__(self) -> Iterator[str]:
        return iter([tag for tag, _card in self.items()])

    # ------------------------------------------------------------------ changes

    def assign(self, tag: str, card: str, *, save: bool = True) -> bool:
        """Enroll ``tag`` for ``card``; ``False`` if it was so already (nothing written).

        A tag already mapped to another card raises :class:`TagConflict`, naming that card;
        an id that is neither a card nor a noble raises :class:`TagMapError`.
        """
        tag = normalise(tag)
        if card not in _ORDER:
            raise TagMapError(DeviceCode.UNKNOWN_CARD, _("{card} is not a card").format(card=card))
        if not tag:
            raise TagMapError(DeviceCode.EMPTY_TAG, _("the tag id is empty"))
        with self._lock:
            owner = self._tags.get(tag)
            if owner == card:
                return False
            if owner is not None:
                raise TagConflict(
                    DeviceCode.TAG_TAKEN,
                    _("tag {tag} is already on card {other}: scan another tag for {card}").format(
                        tag=tag, other=owner, card=card
                    ),
                    tag=tag,
                    card=owner,
                )
            before = dict(self._tags)
            for old in [t for t, c in self._tags.items() if c == card]:
                del self._tags[old]
            self._tags[tag] = card
            if save:
                self._save_or_undo(before)
        return True

    def forget(self, card: str) -> bool:
        """Remove the tag of ``card``; ``False`` if it had none."""
        with self._lock:
            old = [t for t, c in self._tags.items() if c == card]
            if not old:
                return False
            before = dict(self._tags)
            for tag in old:
                del self._tags[tag]
            self._save_or_undo(before)
        return True

    def save(self) -> None:
        with self._lock:
            self._save_locked()

    def _save_or_undo(self, before: dict[str, str]) -> None:
        """Save the change (the lock held); when the file cannot be written, the tags are
        ``before`` again: the map never holds what its file does not."""
        try:
            self._save_locked()
        except TagMapError:
            self._tags = before
            raise

    def _save_locked(self) -> None:
        if self.path is None:
            return
        ordered = dict(sorted(self._tags.items(), key=lambda pair: _ORDER[pair[1]]))
        text = json.dumps(
            {"format": FORMAT, "version": VERSION, "tags": ordered},
            indent=2,
            ensure_ascii=False,
            allow_nan=False,
        )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, text + "\n")
        except OSError as err:
            raise TagMapError(
                DeviceCode.UNWRITABLE,
                _("cannot write {file}: {reason}").format(file=self.path, reason=os_reason(err)),
            ) from err


def _invalid(path: Path, reason: str) -> TagMapError:
    return TagMapError(
        DeviceCode.INVALID,
        _("{file} is not a valid tag map: {reason}").format(file=path, reason=reason),
    )
