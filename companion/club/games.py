"""A finished game as the club keeps it: its fingerprint (the club's key) and the figures
the league reads without replaying (who sat where, their ranks and points)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ..journal.seats import companion_levels
from ..records.record import Record, document, replay


def game_fingerprint(record: Record) -> str:
    """The club's key of a game: what :meth:`companion.journal.store.Store.same_game`
    compares (the players in order, the rules, the setup, the moves in play), hashed.
    Times, the writer and annotations do not count: a game pushed twice, or exported from
    one kiosk and imported at another, is one game of the club."""
    doc = document(Record(record.setup, record.moves, {}))
    key = {k: doc.get(k) for k in ("players", "rules", "setup", "moves")}
    text = json.dumps(key, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class ClubGame:
    """What the kiosk sends of a finished game."""

    fingerprint: str
    finished_at: str
    state: str  # over or stalled
    players: tuple[str, ...]
    levels: tuple[str | None, ...]
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    record: dict[str, Any]
    review: dict[str, Any] | None


def club_game(record: Record, finished_at: str) -> ClubGame:
    """The club's row of a finished record (replayed once: its ranks by E2)."""
    game = replay(record).game
    ranks = {s.seat: s.rank for s in game.standings()}
    doc = document(record)
    annotations = record.extra.get("annotations")
    review = annotations.get("review") if isinstance(annotations, dict) else None
    return ClubGame(
        fingerprint=game_fingerprint(record),
        finished_at=str(record.extra.get("ended_at") or finished_at),
        state=game.status.value,
        players=tuple(game.names),
        levels=companion_levels(record.extra, len(game.names)),
        ranks=tuple(ranks[s.seat] for s in game.seats),
        points=tuple(s.points for s in game.seats),
        record=doc,
        review=review if isinstance(review, dict) else None,
    )
