"""A game's record for people and other tools: JSON (the spec's record), CSV, plain text.

Files are written atomically: an interrupted export never leaves a half file that looks
complete. What a record carries comes from strangers: file names are made only from what
the app makes safe (the date's digits, the letters of the names, the game's number), a
name that would start a spreadsheet formula is written as text, and the text export holds
no terminal escape sequence or control character.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import bgstats
from .ai.seats import companion_levels
from .errors import ExportError as ExportError  # where callers have always found it
from .errors import StoreError
from .files import write_atomic
from .game import Game
from .i18n import translate as _
from .playtime import played_minutes
from .record import Record, replay, write
from .store import GameInfo, Store, resolve
from .text import csv_cell, printable
from .timeline import Step, timeline

FORMATS = ("json", "csv", "txt", "bgstats")
CSV_COLUMNS = (
    "move",
    "round",
    "player",
    "action",
    "cards",
    "revealed",
    "tokens",
    "noble",
    "points_after",
)


def _tokens_text(step: Step) -> str:
    parts = []
    if any(step.gained):
        parts.append(f"+{step.gained}")
    if any(step.spent):
        parts.append(f"-{step.spent}")
    return " ".join(parts)


def to_csv(record: Record) -> str:
    """One row per move: number, round, player, action, cards, tokens, points after..."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for step in timeline(record):
        card = step.card.id if step.card else getattr(step.move, "card", None) or ""
        if not card and getattr(step.move, "deck", None):
            card = f"L{step.move.deck}?"  # type: ignore[union-attr]
        writer.writerow(
            (
                step.number,
                step.round,
                csv_cell(step.player),
                step.action,
                card,
                step.revealed or "",
                _tokens_text(step),
                step.noble.id if step.noble else "",
                step.points_after,
            )
        )
    return out.getvalue()


def verdict_lines(record: Record) -> list[str]:
    """The standings of a record's game, with the tie-break spelled out (E2)."""
    return verdict(replay(record).game)


def verdict(game: Game) -> list[str]:
    """The standings, then who won and why: the tie-break spelled out (E2)."""
    lines = []
    standings = game.standings()
    for s in standings:
        nobles = ", ".join(s.nobles) or "-"
        lines.append(
            _("{rank}. {player}: {points} points, {cards} cards, nobles {nobles}").format(
                rank=s.rank, player=s.player, points=s.points, cards=s.cards, nobles=nobles
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
                "{names} are tied on {points} points: {winner} wins with fewer development "
                "cards ({cards})."
            ).format(
                names=", ".join(s.player for s in top),
                points=top[0].points,
                winner=" & ".join(s.player for s in winners),
                cards=winners[0].cards,
            )
        )
    if len(winners) > 1:
        lines.append(
            _(
                "{names} are tied on points and on cards ({points} points, {cards} cards): "
                "they share the victory."
            ).format(
                names=", ".join(s.player for s in winners),
                points=winners[0].points,
                cards=winners[0].cards,
            )
        )
    elif len(top) == 1:
        lines.append(_("Game over: {name} wins.").format(name=winners[0].player))
    return lines


def to_text(record: Record) -> str:
    """A plain-text summary a person can read: standings, then the cards and nobles."""
    lines = [_("Splendor: {players}").format(players=", ".join(record.players))]
    levels = companion_levels(record.extra, len(record.players))
    if any(levels):
        seats = [f"{n} ({_(lv)})" for n, lv in zip(record.players, levels, strict=True) if lv]
        lines.append(_("The companion played: {seats}").format(seats=", ".join(seats)))
    if record.extra.get("started_at"):
        lines.append(_("Started {at}").format(at=record.extra["started_at"]))
    if record.extra.get("ended_at"):
        lines.append(_("Ended {at}").format(at=record.extra["ended_at"]))
    lines.append("")
    lines.append(_("Final standings"))
    lines.extend("  " + line for line in verdict_lines(record))
    lines.append("")
    lines.append(_("Timeline of cards and nobles"))
    for step in timeline(record):
        events = []
        if step.action == "buy" and step.card:
            events.append(
                _("{player} buys {card} (+{points})").format(
                    player=step.player, card=step.card.id, points=step.card.points
                )
                if step.card.points
                else _("{player} buys {card}").format(player=step.player, card=step.card.id)
            )
        elif step.action == "reserve":
            what = (
                step.card.id
                if step.card
                else _("a card from deck {level}").format(level=getattr(step.move, "deck", "?"))
            )
            events.append(_("{player} reserves {card}").format(player=step.player, card=what))
        if step.noble:
            events.append(
                _("{noble} visits {player}").format(noble=step.noble.id, player=step.player)
            )
        for event in events:
            lines.append(
                "  "
                + _("Round {round}, move {n}: {event}. {player} has {points} points.").format(
                    player=step.player,
                    round=step.round,
                    n=step.number,
                    event=event,
                    points=step.points_after,
                )
            )
    return "\n".join(printable(line) for line in lines) + "\n"


def to_bgstats(record: Record, person: Callable[[str], str] | None = None) -> str:
    """The play for BG Stats (the JSON its QR code holds), as a file to open in the app."""
    play = bgstats.play(record, duration_min=played_minutes(record), person=person)
    return bgstats.document(play)


RENDER: dict[str, Callable[[Record], str]] = {
    "json": write,
    "csv": to_csv,
    "txt": to_text,
    "bgstats": to_bgstats,
}
# What each format's file is called: ``<stem>.<suffix>``.
SUFFIX = {"json": "json", "csv": "csv", "txt": "txt", "bgstats": "bgstats.json"}


def render(record: Record, fmt: str, person: Callable[[str], str] | None = None) -> str:
    """``person``: the person a name counts as after a merge (the BG Stats play names them)."""
    if fmt == "bgstats":
        return to_bgstats(record, person)
    return RENDER[fmt](record)


def export_file(
    record: Record, fmt: str, path: Path, person: Callable[[str], str] | None = None
) -> Path:
    """Write one export; :class:`ExportError` says why it could not be written."""
    try:
        write_atomic(path, render(record, fmt, person))
    except OSError as err:
        raise ExportError(path, err.strerror or str(err)) from None
    return path


def file_stem(info: GameInfo) -> str:
    """``2026-11-21_2015_Ada-Ben-Cleo_g12``: sortable, readable, safe on a FAT stick.

    Made only of digits, letters and ``_-``: no ``/``, ``.`` or ``..`` from a record can
    take the file out of the export folder.

    >>> info = GameInfo(7, "../../../x", "", None, ("A/../b", "..", "Zoë"), "over", (), 0)
    >>> file_stem(info)
    'undated_Ab-player-Zoë_g7'
    """
    when = re.match(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})", info.started_at, re.ASCII)
    date = "{}-{}-{}_{}{}".format(*when.groups()) if when else "undated"
    names = "-".join(re.sub(r"\W+", "", p) or "player" for p in info.players)
    return f"{date}_{names[:60]}_g{int(info.id)}"


@dataclass(frozen=True, slots=True)
class ExportAll:
    written: list[Path]
    games: int
    skipped: tuple[StoreError, ...] = ()
    """Games the journal could not give back (each error names its game): the others
    were exported all the same."""


def export_all(store: Store, folder: Path, formats: tuple[str, ...] = FORMATS) -> ExportAll:
    """Every finished game into ``folder`` (a USB stick, say), in each format."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ExportError(folder, err.strerror or str(err)) from None
    written = []
    finished = [g for g in store.games() if g.finished]
    aliases = store.aliases()

    def person(name: str) -> str:
        return resolve(aliases, name)

    skipped = []
    for info in finished:
        try:
            record = store.record(info.id, with_journal=True)
        except StoreError as err:
            skipped.append(err)
            continue
        stem = file_stem(info)
        for fmt in formats:
            path = folder / f"{stem}.{SUFFIX[fmt]}"
            written.append(export_file(record, fmt, path, person))
    return ExportAll(written, len(finished) - len(skipped), tuple(skipped))
