"""Running a blocking generator of events as an async generator (the engines' common shape).

Engines do their work in plain generators (SQLite, llama.cpp and the sandbox all block); the TUI
and async callers consume them with ``async for`` without blocking their event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TypeVar

Event = TypeVar("Event")
_DONE = object()


async def iterate_in_thread(make: Callable[[], Iterator[Event]]) -> AsyncIterator[Event]:
    """Run ``make()`` in a worker thread and yield its items here, in order.

    If the consumer stops early, the generator is closed in its thread after its current item.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    stop = False

    def produce() -> None:
        generator = make()
        try:
            for item in generator:
                loop.call_soon_threadsafe(queue.put_nowait, item)
                if stop:
                    break
        except BaseException as error:  # handed to the consumer, raised there
            loop.call_soon_threadsafe(queue.put_nowait, error)
        finally:
            generator.close()
            loop.call_soon_threadsafe(queue.put_nowait, _DONE)

    worker = loop.run_in_executor(None, produce)
    try:
        while True:
            item = await queue.get()
            if item is _DONE:
                break
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop = True
        await asyncio.shield(worker)
