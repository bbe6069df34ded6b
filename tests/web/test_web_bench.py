"""The web benchmark's arithmetic (``python -m web.bench``): what its figures are made of.
Its timings are never asserted; the command itself runs the real app for a minute."""

from __future__ import annotations

import pytest

from web.bench import delays, frames_lines, percentile


def test_each_move_counts_the_first_event_after_it_was_journaled() -> None:
    journaled = [10.0, 11.0, 11.05, 20.0]
    # The feed's event on connecting came before any move; the second and third moves
    # were close enough to arrive as one event; nothing came after the last move.
    arrivals = [1.0, 10.1, 11.2, 11.3]
    assert delays(journaled, arrivals) == pytest.approx([100.0, 200.0, 150.0])


def test_percentiles_are_taken_from_the_values_themselves() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.5) == 51.0  # the nearer of the two middle values
    assert percentile(values, 0.99) == 99.0
    assert percentile(values, 1.0) == 100.0
    assert percentile([7.0], 0.99) == 7.0


def test_frames_drawn_are_told_apart_from_the_frames_with_nothing_to_draw() -> None:
    run = {
        "intervals": [0.016, 0.016, 0.2, 0.016],
        "busy": [0.001, 0.001, 0.18, 0.002],
        "cpu": [0.0005, 0.0005, 0.09, 0.001],
        "drawn": [False, False, True, True],
    }
    heading, work, cpu = frames_lines("with", run)
    assert heading == "with: 4 frames, frame to frame p50 16 ms, p99 200 ms, max 200 ms"
    assert "the 2 drawn p50 91 ms, p99 180 ms, max 180 ms" in work
    assert "the 2 others p50 1.0 ms, p99 1.0 ms, max 1.0 ms" in work
    assert cpu == "    the app's CPU time in a drawn frame: p50 46 ms, p99 90 ms, max 90 ms"


def test_a_run_with_no_frame_drawn_says_so() -> None:
    run = {"intervals": [0.016], "busy": [0.001], "cpu": [0.0], "drawn": [False]}
    lines = frames_lines("without", run)
    assert "the 0 drawn -;" in lines[1]
    assert lines[2].endswith("in a drawn frame: -")
