"""The review's check kept game by game: ``review_bench --verify --save FILE``.

A hundred games checked take hours of a small machine. Each game's verdicts are appended to
``FILE`` as one JSON line the moment the game is done, with the settings they were made at;
run again with the same file, the games already there are read back, not played again. So a
long check can be stopped and taken up again (the same game number is the same game on any
machine), and its figures always cover every game in the file that the run asks for.

A file is the bench's own, but it may have been cut mid-line by a stop, copied, or edited
by hand: a line that cannot be read is named in a clear error. The file is only appended
to; the one thing taken from it is a last line a stop cut short (no whole game is in it:
that game is played again).

>>> line = dumps(7, (120, 16, 40, 8), ([Checked(4, 9, 0.2, 0.05)], [Said(4, 0.3, 0.0)], 1))
>>> loads(line, (120, 16, 40, 8))[0]
7
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..i18n import _
from .verify import Checked, Said

Settings = tuple[int, int, int, int]  # playouts, deeper, play-playouts, every
Result = tuple[list[Checked], list[Said], int]  # a game's verdicts, chances, and left out


class KeptError(Exception):
    """A kept file that cannot be used, in words that name the line and what to do."""


class OtherSettings(Exception):
    """A line of games checked at other settings (its settings, as words)."""


def dumps(game: int, settings: Settings, result: Result) -> str:
    """One game's line."""
    checked, said, left_out = result
    return json.dumps(
        {
            "game": game,
            "settings": list(settings),
            "checked": [[c.players, c.number, c.cost, c.margin] for c in checked],
            "said": [[s.players, s.chance, s.won, s.raw, s.outlook] for s in said],
            "left_out": left_out,
        },
        separators=(",", ":"),
    )


def loads(line: str, settings: Settings) -> tuple[int, Result]:
    """One game's line read back; ``ValueError`` (or a ``KeyError``/``TypeError``) when it
    is not one, :class:`OtherSettings` when its settings are not ``settings``."""
    data: Any = json.loads(line)
    if tuple(data["settings"]) != settings:
        raise OtherSettings(str(tuple(data["settings"])))
    checked = [Checked(int(p), int(n), float(c), float(m)) for p, n, c, m in data["checked"]]
    return int(data["game"]), (checked, said_of(data["said"]), int(data["left_out"]))


def said_of(rows: Any) -> list[Said]:
    """A kept line's ``said`` (each a seat's table size, chance, share won, raw chance and
    judgement) as :class:`Said`; ``ValueError`` or ``TypeError`` when they are not.
    ``calibrate --out`` writes them the same way."""
    return [Said(int(p), float(c), float(w), float(r), float(o)) for p, c, w, r, o in rows]


def read(path: Path, settings: Settings) -> dict[int, Result]:
    """Every game kept in ``path`` (none when it does not exist yet). A last line a stop
    cut short is taken off the file, and its game is played again."""
    if not path.exists():
        return {}
    try:
        data = path.read_bytes()
    except OSError as e:
        raise KeptError(
            _("cannot read {path}: {error}; give another --save file").format(path=path, error=e)
        ) from e
    whole, _newline, cut = data.rpartition(b"\n")
    lines = whole.split(b"\n") if _newline else []
    if not _newline:
        cut = data
    out: dict[int, Result] = {}
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            game, result = loads(raw.decode("utf-8"), settings)
        except OtherSettings as e:
            raise _other(path, i, e, settings) from e
        except (ValueError, KeyError, TypeError, IndexError) as e:  # UnicodeDecodeError too
            raise KeptError(
                _(
                    "{path}, line {line} is not a game this bench kept; remove that line or "
                    "give another --save file"
                ).format(path=path, line=i)
            ) from e
        out[game] = result
    if cut.strip():
        try:
            game, result = loads(cut.decode("utf-8"), settings)
        except OtherSettings as e:
            raise _other(path, len(lines) + 1, e, settings) from e
        except (ValueError, KeyError, TypeError, IndexError):
            # Cut short by a stop: no whole game in it, so it goes, and the game is played
            # again.
            with path.open("r+b") as f:
                f.truncate(len(data) - len(cut))
        else:
            out[game] = result  # whole, only its line's end missing (edited by hand)
            with path.open("ab") as f:
                f.write(b"\n")
    return out


def _other(path: Path, line: int, theirs: OtherSettings, ours: Settings) -> KeptError:
    return KeptError(
        _(
            "{path}, line {line}: a game checked with other settings {theirs} (this run's are "
            "{ours}: playouts, deeper, play-playouts, every); give the same settings or another "
            "--save file"
        ).format(path=path, line=line, theirs=theirs, ours=ours)
    )


def append(path: Path, game: int, settings: Settings, result: Result) -> None:
    """Add one game's line to ``path`` (made if missing), at once on disk."""
    with path.open("a", encoding="utf-8") as f:
        f.write(dumps(game, settings, result) + "\n")
        f.flush()
