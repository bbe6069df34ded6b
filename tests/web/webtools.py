"""The web page's tests' tools, a module of its own (``tests/web`` is no package, so
that the project's ``web`` stays the one imported): a real journal in ``tmp_path`` written
through the core's session (as the app writes it), and aiohttp's test client on a real
server bound to 127.0.0.1 on a port the system picks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.engine.moves import Reserve
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import Store
from web.server import Site

T = TypeVar("T")


SETTLE = 10.0  # seconds a page may take to load on a busy machine (a failure, not a measure)
PHONE = (390, 844)  # the browser's screen between tests


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for every browser test of a run (of an xdist worker): its
    start is the costly part. A test that changes its screen or colour scheme puts them
    back (:func:`as_phone`)."""
    from web.browser import chromium, missing

    why = missing()
    if why is not None:
        pytest.skip(why)
    driver = chromium(*PHONE)
    driver.set_page_load_timeout(SETTLE)
    yield driver
    driver.quit()


def as_phone(driver: Any, width: int, height: int, scheme: str | None = None) -> None:
    """The browser as a phone of ``width`` x ``height`` CSS pixels preferring ``scheme``
    (``light``, ``dark``; ``None``: the browser's own), through Chrome's emulation."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    features = [{"name": "prefers-color-scheme", "value": scheme}] if scheme else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Store]:
    """The app's journal, open as the app keeps it (the writer's lock held)."""
    folder = tmp_path / "data"
    folder.mkdir()
    store = Store(folder / "games.sqlite3")
    yield store
    store.close()


def play(store: Store, players: int = 2, seed: int = 1, moves: int | None = None) -> Session:
    """A simulated game played move by move through the session (every move journaled)."""
    game = simulate(players=players, seed=seed)
    session = Session.start(store, game.setup)
    for move in game.moves[:moves]:
        session.play(move)
    return session


def blind_game(store: Store) -> tuple[Session, str]:
    """A game stopped just after a blind reserve whose card the journal knows (a
    simulated game names it): the session and that card's id."""
    for seed in range(1, 200):
        game = simulate(players=2, seed=seed)
        for number, move in enumerate(game.moves):
            if isinstance(move, Reserve) and move.deck is not None and move.card:
                session = Session.start(store, game.setup)
                for m in game.moves[: number + 1]:
                    session.play(m)
                return session, move.card
    raise AssertionError("no simulated game reserves blind")


def serve(path: Path, test: Callable[[TestClient[Any, Any]], Awaitable[T]], **options: Any) -> T:
    """Run ``test`` against the server on ``path``'s journal; its result."""

    async def run() -> T:
        site = Site(path, **options)
        async with TestClient(TestServer(site.app(), host="127.0.0.1", port=0)) as client:
            await site.first_figures()  # the statistics' page with its figures, not "counting"
            return await test(client)

    return asyncio.run(run())
