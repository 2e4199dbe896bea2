"""The console's terminal: lines in, text out, without keeping the process hostage.

* Input is read by a daemon thread straight from file descriptor 0. ``input()`` in a worker
  of asyncio's default executor kept the interpreter alive after Ctrl-C until the player
  pressed Enter (asyncio waits for its executor's threads); a daemon thread blocked in
  ``os.read`` holds no Python lock and is simply left behind when the process ends.
* Output that goes nowhere (``./start | head`` after ``head`` has quit) ends the session
  quietly instead of a ``BrokenPipeError`` traceback.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import sys
import threading
from typing import TextIO

# ANSI: clear the screen, then the scrollback (xterm's ``3J``: without it the last player's
# hand is a scroll of the mouse wheel away), and put the cursor top left. Only sent to a
# terminal.
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"
# Lines printed instead when the output is not a terminal, to push a hand out of sight.
BLANK_SCREEN_LINES = 40


class OutputClosed(Exception):
    """The reader of our output has gone (a closed pipe): nobody can see the game."""


class LineReader:
    """Lines from a file descriptor, delivered to the event loop by a daemon thread."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self._queue: asyncio.Queue[str | None] | None = None
        self._thread: threading.Thread | None = None
        # Lines delivered so far, and whether the input has ended: an input that ends
        # before its first line (``< /dev/null``, a container without a terminal) means
        # nobody is there to play (``bot.adapters.console.run_console``).
        self.lines_read = 0
        self.ended = False

    def _start(self) -> asyncio.Queue[str | None]:
        if self._queue is None:
            loop = asyncio.get_running_loop()
            queue: asyncio.Queue[str | None] = asyncio.Queue()
            self._queue = queue

            def pump() -> None:
                decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
                pending = ""
                while True:
                    try:
                        chunk = os.read(self.fd, 4096)
                    except OSError:
                        chunk = b""
                    if not chunk:
                        if pending:
                            loop.call_soon_threadsafe(queue.put_nowait, pending)
                        loop.call_soon_threadsafe(queue.put_nowait, None)
                        return
                    pending += decoder.decode(chunk)
                    *lines, pending = pending.split("\n")
                    for line in lines:
                        loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\r"))

            self._thread = threading.Thread(target=pump, name="console-input", daemon=True)
            self._thread.start()
        return self._queue

    async def read(self, prompt: str, write_prompt: TextIO | None = None) -> str | None:
        """The next line (without its newline), or None at the end of input."""
        out = write_prompt or sys.stdout
        try:
            out.write(prompt)
            out.flush()
        except BrokenPipeError:
            raise OutputClosed from None
        queue = self._start()
        line = await queue.get()
        if line is None:
            self.ended = True
            queue.put_nowait(None)  # every later read sees the end too
        else:
            self.lines_read += 1
        return line


class TerminalWriter:
    """Prints to a stream; a closed pipe raises ``OutputClosed`` once, then stays quiet."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self.closed = False

    def write(self, text: str) -> None:
        if self.closed:
            raise OutputClosed
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except BrokenPipeError:
            self.closed = True
            silence(self.stream)
            raise OutputClosed from None

    def clear(self) -> None:
        """A fresh screen, so that the next player does not see the last one's hand."""
        if self.closed:
            raise OutputClosed
        try:
            if self.stream.isatty():
                self.stream.write(CLEAR_SCREEN)
            else:
                self.stream.write("\n" * BLANK_SCREEN_LINES)
            self.stream.flush()
        except BrokenPipeError:
            self.closed = True
            silence(self.stream)
            raise OutputClosed from None


def silence(stream: TextIO) -> None:
    """Point a dead stream at /dev/null, so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
