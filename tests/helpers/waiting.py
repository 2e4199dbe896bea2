"""Waiting, with a bound, for a condition that comes true on its own schedule (a server that
lets a lock go once it notices a closed connection, say): a test that reads such a thing
once can fail on a correct product, and one that waits without a bound never fails."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def eventually(read: Callable[[], Awaitable[T]], expected: T, seconds: float = 5.0,
                     interval: float = 0.01) -> T:
    """Call ``read`` until it returns ``expected`` or ``seconds`` have passed, and return
    its last answer: ``assert await eventually(count, 0) == 0`` fails, showing the count,
    only when it never came to 0 in time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        value = await read()
        if value == expected or loop.time() >= deadline:
            return value
        await asyncio.sleep(interval)
