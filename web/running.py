"""The server on a thread of its own, on 127.0.0.1 and a port the system picks: for the
browser tests, the screenshots and the benchmark, which drive it from outside."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from aiohttp import web

from .server import Site


class ServerThread:
    """``with ServerThread(journal) as server:`` ... ``server.url``."""

    def __init__(self, journal: Path, *, figures: bool = True, **options: Any) -> None:
        self.site = Site(journal, **options)
        self.figures = figures
        """Whether it starts once the statistics are read (a screenshot shows them)."""
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    async def _start(self) -> None:
        self._runner = self.site.runner()
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        # The port the system picked: the listening socket's (aiohttp keeps its server).
        server: Any = site._server
        self.port = int(server.sockets[0].getsockname()[1])
        if self.figures:
            await self.site.first_figures()

    def __enter__(self) -> ServerThread:
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the web server did not start")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        async def stop() -> None:
            if self._runner is not None:
                await self._runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)
