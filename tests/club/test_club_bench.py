"""The club's benchmark runs and says its figures (tests never assert timings)."""

from __future__ import annotations

from clubdb import ClubDb

from companion.club import bench


def test_the_benchmark_pushes_rates_and_reads_the_league(club: ClubDb) -> None:
    lines = bench.measure(club.owner(), club.url(), kiosks=2, games=4, journal=2, pool_size=3)
    assert lines[0].startswith("push: 2 kiosks x 4 games = 8 games in ")
    assert lines[1].startswith("ratings: 8 games rated from the start in ")
    assert any(line.startswith("ratings: one game arriving late: ") for line in lines)
    assert lines[-1].startswith("league page (12 games, ")
