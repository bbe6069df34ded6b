"""A game's record for people and other tools: JSON (the spec's record), CSV, plain text.

Files are written atomically: an interrupted export never leaves a half file that looks
complete. What a record carries comes from strangers: file names are made only from what
the app makes safe (the date's digits, the letters of the names, the game's number), a
name that would start a spreadsheet formula is written as text, and the text export holds
no terminal escape sequence or control character.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import functools
import io
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..coach.review import review_of, text_lines
from ..engine.cards import CARDS, NOBLES
from ..engine.game import Game
from ..engine.moves import Buy, Reserve, Take
from ..engine.naming import card_words, noble_words
from ..engine.tokens import Colour, Tokens
from ..errors import ExportError as ExportError  # where callers have always found it
from ..errors import ExportRefused, StoreError
from ..files import (
    EXPORT_ELSEWHERE,
    MAX_NAME_BYTES,
    OUT_ELSEWHERE,
    NotAFile,
    fit_bytes,
    write_atomic,
)
from ..i18n import localise, ngettext, os_reason
from ..i18n import translate as _
from ..journal.seats import companion_levels, seat_titles
from ..journal.store import GameInfo, Store, resolve
from ..records.playtime import clock_annotation, clock_text, local_time, move_times, played_minutes
from ..records.record import Record, replay, write
from ..records.timeline import Step, timeline
from ..text import csv_cell, printable
from . import bgstats

# The columns of the CSV export, one row per move (README.md, "The CSV export").
# Token columns are counts per colour: what the player received, what it paid for a buy,
# what it gave back to end the turn at 10.
CSV_COLUMNS = (
    "move",
    "round",
    "player",
    "played_by",
    "action",
    "card",
    "from_deck",
    "revealed",
    *(f"took_{c.key}" for c in Colour),
    *(f"paid_{c.key}" for c in Colour),
    *(f"returned_{c.key}" for c in Colour),
    "noble",
    "points_after",
    "played_at",
    "turn_seconds",
)


def to_csv(record: Record) -> str:
    """One row per move, in columns a spreadsheet reads (see :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    times = move_times(record)
    # Who made each seat's decisions: a person, or the companion at its level.
    played_by = [
        f"companion {level}" if level else "person"
        for level in companion_levels(record.extra, len(record.players))
    ]
    for step in timeline(record):
        time = times.get(step.number)
        returned = step.move.returned or Tokens()
        paid = Tokens._make(s - r for s, r in zip(step.spent, returned, strict=True))
        card = step.card.id if step.card else getattr(step.move, "card", None) or ""
        deck = getattr(step.move, "deck", None) or ""
        writer.writerow(
            (
                step.number,
                step.round,
                csv_cell(step.player),
                played_by[step.seat],
                step.action,
                card,
                deck,
                step.revealed or "",
                *step.gained,
                *paid,
                *returned,
                step.noble.id if step.noble else "",
                step.points_after,
                time.at.strftime("%Y-%m-%dT%H:%M:%SZ") if time else "",
                int(time.turn.total_seconds()) if time else "",
            )
        )
    return out.getvalue()


def to_json(record: Record) -> str:
    """The spec's record; with the table's log, the game clock in ``annotations.clock``."""
    clock = clock_annotation(record)
    if clock is None:
        return write(record)
    annotations = dict(record.extra.get("annotations") or {})
    annotations["clock"] = clock
    return write(Record(record.setup, record.moves, {**record.extra, "annotations": annotations}))


def points_text(n: int) -> str:
    """``1 point``, ``6 points``: a count of points in the reader's language."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def cards_text(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def verdict_lines(record: Record) -> list[str]:
    """The standings of a record's game, with the tie-break spelled out (E2)."""
    return verdict(replay(record).game)


def verdict(game: Game) -> list[str]:
    """The standings, then who won and why: the tie-break spelled out (E2)."""
    lines = []
    standings = game.standings()
    for s in standings:
        nobles = "; ".join(noble_words(NOBLES[n]) for n in s.nobles) or "-"
        lines.append(
            _("{rank}. {player}: {points}, {cards}, nobles {nobles}").format(
                rank=s.rank,
                player=s.player,
                points=points_text(s.points),
                cards=cards_text(s.cards),
                nobles=nobles,
            )
        )
    if not game.over:
        lines.append(_("The game is not over (round {n}).").format(n=game.round))
        return lines
    top = [s for s in standings if s.points == standings[0].points]
    winners = [s for s in top if s.rank == 1]
    if len(top) > 1 and len(winners) < len(top):
        lines.append(
            _(
                "{names} are tied on {points}: {winner} wins with fewer development "
                "cards ({cards})."
            ).format(
                names=", ".join(s.player for s in top),
                points=points_text(top[0].points),
                winner=" & ".join(s.player for s in winners),
                cards=cards_text(winners[0].cards),
            )
        )
    if len(winners) > 1:
        lines.append(
            _(
                "{names} are tied on points and on cards ({points}, {cards}): "
                "they share the victory."
            ).format(
                names=", ".join(s.player for s in winners),
                points=points_text(winners[0].points),
                cards=cards_text(winners[0].cards),
            )
        )
    elif len(top) == 1:
        lines.append(_("Game over: {name} wins.").format(name=winners[0].player))
    return lines


def _points(player: str, points: int) -> str:
    return ngettext("{player} has {n} point.", "{player} has {n} points.", points).format(
        player=player, n=points
    )


def _sentences(step: Step) -> list[str]:
    """What a move did, said as people tell it (without the noble: its own line)."""
    player, move = step.player, step.move
    returned = move.returned or Tokens()
    said: list[str] = []
    if isinstance(move, Take):
        said.append(_("{player} takes {tokens}.").format(player=player, tokens=localise(move.gems)))
    elif isinstance(move, Reserve):
        if step.card is not None and move.deck is None:
            said.append(
                _("{player} reserves {card}.").format(player=player, card=card_words(step.card))
            )
        else:
            said.append(
                _("{player} reserves a card from the level {level} deck.").format(
                    player=player, level=move.deck
                )
            )
        if step.gained.gold:
            said.append(_("{player} receives a gold token.").format(player=player))
    elif isinstance(move, Buy):
        paid = Tokens._make(s - r for s, r in zip(step.spent, returned, strict=True))
        said.append(
            _("{player} buys {card}.").format(player=player, card=card_words(CARDS[move.card]))
        )
        if any(paid):
            said.append(_("{player} pays {tokens}.").format(player=player, tokens=localise(paid)))
    else:
        said.append(_("{player} passes: no move is possible.").format(player=player))
    if any(returned):
        said.append(
            _("{player} gives back {tokens}.").format(player=player, tokens=localise(returned))
        )
    if step.revealed:
        said.append(_("Revealed: {card}.").format(card=card_words(CARDS[step.revealed])))
    return said


def _moment(at: object) -> str:
    """A time of the record as every output shows it: local (see :func:`local_time`);
    anything else as it is."""
    return local_time(at) or str(at)


def _imported_at(record: Record) -> str | None:
    """When the game was imported, from the journal the export carries: the only date of a
    record that gives no start time of its own."""
    journal = (record.extra.get("annotations") or {}).get("journal")
    for entry in journal if isinstance(journal, list) else ():
        if isinstance(entry, dict) and entry.get("event") == "import":
            return local_time(entry.get("at"))
    return None


def to_text(record: Record) -> str:
    """The game for a person to read: who played, when, the standings, then every move."""
    # The companion's seats marked as everywhere off the table: ``Robo (hard)``.
    seats = seat_titles(record.players, record.extra)
    lines = [_("Splendor: {players}").format(players=", ".join(seats))]
    # The game's own times; a record that has none (written elsewhere) says when it came
    # in, as such, never as its start.
    if record.extra.get("started_at"):
        lines.append(_("Started {at}").format(at=_moment(record.extra["started_at"])))
    elif (imported := _imported_at(record)) is not None:
        lines.append(_("Imported {at} (the record gives no start time)").format(at=imported))
    if record.extra.get("ended_at"):
        lines.append(_("Ended {at}").format(at=_moment(record.extra["ended_at"])))
    times = move_times(record)
    if times:
        played = times[max(times)].elapsed
        lines.append(_("Played for {time} (breaks left out)").format(time=clock_text(played)))
    lines.append("")
    over = replay(record).game.over
    # The standings end with "the game is not over" when it is not: said once.
    lines.append(_("Final standings") if over else _("Standings so far"))
    lines.extend("  " + line for line in verdict_lines(record))
    lines.append("")
    lines.append(_("Every move"))
    for step in timeline(record):
        where = _("Round {round}, move {n}:").format(round=step.round, n=step.number)
        noble_points = step.noble.points if step.noble else 0
        said = _sentences(step)
        said.append(_points(step.player, step.points_after - noble_points))
        time = times.get(step.number)
        clock = f"[{clock_text(time.elapsed)}] " if time else ""
        lines.append(f"  {clock}{where} {' '.join(said)}")
        if step.noble:
            visit = _("The noble {bonuses} visits {player}.").format(
                bonuses=noble_words(step.noble), player=step.player
            )
            lines.append(f"  {where} {visit} {_points(step.player, step.points_after)}")
    # The companion's review, when one was made for these very moves (the journal's).
    done = review_of(record.extra, record)
    if done is not None:
        levels = companion_levels(record.extra, len(record.players))
        lines += ["", *text_lines(record, done, seats, levels)]
    return "\n".join(printable(line) for line in lines) + "\n"


def to_bgstats(record: Record, person: Callable[[str], str] | None = None) -> str:
    """The play for BG Stats (the JSON its QR code holds), as a file to open in the app."""
    play = bgstats.play(record, duration_min=played_minutes(record), person=person)
    return bgstats.document(play)


@dataclass(frozen=True, slots=True)
class Format:
    """An export format: its name on the command line and the end of its files' names."""

    name: str
    suffix: str
    write: Callable[[Record, Callable[[str], str] | None], str]


# Every export format, in the order ``export --all`` writes them.
FORMAT = {
    f.name: f
    for f in (
        Format("json", "json", lambda record, person: to_json(record)),
        Format("csv", "csv", lambda record, person: to_csv(record)),
        Format("txt", "txt", lambda record, person: to_text(record)),
        Format("bgstats", "bgstats.json", to_bgstats),
    )
}
FORMATS = tuple(FORMAT)


def render(record: Record, fmt: str, person: Callable[[str], str] | None = None) -> str:
    """``person``: the person a name counts as after a merge (the BG Stats play names them)."""
    return FORMAT[fmt].write(record, person)


def export_text(record: Record, fmt: str, person: Callable[[str], str] | None = None) -> str:
    """An export's whole file: the CSV with a byte-order mark, so that a spreadsheet opens
    it as UTF-8 ("Åsa", not "Ã…sa")."""
    text = render(record, fmt, person)
    return "\ufeff" + text if fmt == "csv" else text


def export_file(
    record: Record,
    fmt: str,
    path: Path,
    person: Callable[[str], str] | None = None,
    *,
    advice: str = OUT_ELSEWHERE,
    streams: bool = True,
) -> Path:
    """Write one export; :class:`ExportError` says why it could not be written,
    :class:`ExportRefused` that its name is taken by a link, a folder... (never followed).

    By default ``path`` is a name the person gave (``--out``): a pipe or a device there is
    written into (``streams``). Into a folder of the app's names, see :func:`export_game`.
    """
    try:
        write_atomic(path, export_text(record, fmt, person), advice=advice, streams=streams)
    except NotAFile as err:
        raise ExportRefused(path, str(err)) from None
    except OSError as err:
        raise ExportError(path, os_reason(err)) from None
    return path


STEM_BYTES = MAX_NAME_BYTES - 16
"""The most bytes of a file's stem: the rest is room for its ending, the longest being
``.bgstats.json`` (and the app's ``.png`` chart)."""


def file_stem(info: GameInfo) -> str:
    """``2026-11-21_2015_Ada-Ben-Cleo_g12``: sortable, readable, safe on a FAT stick.

    The date is the game's start in local time, as ``games`` shows it; a game imported
    from a record that gives none is named by its import: ``imported-2026-11-26_0349_...``.

    Made only of digits, letters and ``_-``: no ``/``, ``.`` or ``..`` from a record can
    take the file out of the export folder. The names are cut (at a letter) so that the
    whole file name fits in 255 bytes; the date and ``_g<N>``, unique, are always whole.

    >>> info = GameInfo(7, "../../../x", "", None, ("A/../b", "..", "Zoë"), "over", (), 0)
    >>> file_stem(info)
    'undated_Ab-player-Zoë_g7'
    """
    when = local_time(info.started_at)
    date = when.replace(" ", "_").replace(":", "") if when else "undated"
    if when and info.undated:
        date = "imported-" + date
    names = "-".join(re.sub(r"\W+", "", p) or "player" for p in info.players)
    tail = f"_g{int(info.id)}"
    room = STEM_BYTES - len(date) - len("_") - len(tail)
    return f"{date}_{fit_bytes(names[:60], room)}{tail}"


@dataclass(frozen=True, slots=True)
class ExportAll:
    written: list[Path]
    games: int
    """The games whose every file was written."""
    unchanged: tuple[Path, ...] = ()
    """Files of ``written`` that were there already with the same bytes: left as they
    are (an export never replaces a file: another one gets a new name)."""
    skipped: tuple[StoreError, ...] = ()
    """Games the journal could not give back (each error names its game): the others
    were exported all the same."""
    refused: tuple[ExportRefused, ...] = ()
    """Files whose name in the folder is taken by a link, a folder, a device... (each
    error names the file and how to clear it): left as they are, the others written."""


def export_all(store: Store, folder: Path, formats: tuple[str, ...] = FORMATS) -> ExportAll:
    """Every finished game into ``folder`` (a USB stick, say), in each format.

    A game the journal cannot give back and a file whose name is taken are reported
    (``skipped``, ``refused``) and the export goes on; anything else (a full or read-only
    stick, one pulled out) would fail every file alike: it stops, :class:`ExportError`.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ExportError(folder, os_reason(err)) from None
    written: list[Path] = []
    finished = [g for g in store.games() if g.finished]
    aliases = store.aliases()

    def person(name: str) -> str:
        return resolve(aliases, name)

    skipped: list[StoreError] = []
    unchanged: list[Path] = []
    refused: list[ExportRefused] = []
    games = 0
    for info in finished:
        try:
            done = export_game(store, info, folder, formats, person)
        except StoreError as err:
            skipped.append(err)
            continue
        written += done.written
        unchanged += done.unchanged
        refused += done.refused
        games += done.games
    return ExportAll(written, games, tuple(unchanged), tuple(skipped), tuple(refused))


def export_game(
    store: Store,
    info: GameInfo,
    folder: Path,
    formats: tuple[str, ...] = FORMATS,
    person: Callable[[str], str] | None = None,
) -> ExportAll:
    """One game into ``folder``, a file per format, named by :func:`file_stem`.

    No file is ever replaced there: a file of the same name and the same bytes (the same
    export, made again) is left as it is (``unchanged``); one that differs (the game went
    on, another kiosk's game 1) keeps its name and the new file gets the next free one,
    ``..._g1-2.json``. A name taken by anything else (a link, even to a file) is refused
    (``refused``) and the other formats are written all the same.
    """
    if person is None:
        aliases = store.aliases()
        person = functools.partial(resolve, aliases)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ExportError(folder, os_reason(err)) from None
    record = store.record(info.id, with_journal=True)
    stem = file_stem(info)
    written: list[Path] = []
    unchanged: list[Path] = []
    refused: list[ExportRefused] = []
    for fmt in formats:
        data = export_text(record, fmt, person).encode("utf-8")
        try:
            path, same = _write_new(folder, stem, FORMAT[fmt].suffix, data)
        except ExportRefused as err:
            refused.append(err)
            continue
        written.append(path)
        if same:
            unchanged.append(path)
    return ExportAll(written, 0 if refused else 1, tuple(unchanged), refused=tuple(refused))


def _write_new(folder: Path, stem: str, suffix: str, data: bytes) -> tuple[Path, bool]:
    """``data`` at ``stem.suffix``, else ``stem-2.suffix``...: the path, and whether a
    file there had these bytes already (then left as it is)."""
    for n in range(1, 1000):
        path = folder / (f"{stem}.{suffix}" if n == 1 else f"{stem}-{n}.{suffix}")
        try:
            found: os.stat_result | None = os.lstat(path)
        except FileNotFoundError:
            found = None
        if found is not None and stat.S_ISREG(found.st_mode):
            with contextlib.suppress(OSError):
                if found.st_size == len(data) and path.read_bytes() == data:
                    return path, True
            continue
        try:
            write_atomic(path, data, advice=EXPORT_ELSEWHERE, replace=False)
        except FileExistsError:
            continue  # put there meanwhile: the next name
        except NotAFile as err:
            raise ExportRefused(path, str(err)) from None
        except OSError as err:
            raise ExportError(path, os_reason(err)) from None
        return path, False
    raise ExportError(folder / f"{stem}.{suffix}", os_reason(FileExistsError(errno.EEXIST, "")))
