"""The console's terminal: lines from a file descriptor, and output into a closed pipe."""

from __future__ import annotations

import io
import os

import pytest

from bot.adapters.console.io import LineReader, OutputClosed, TerminalWriter


async def test_lines_arrive_whole_and_the_end_stays_the_end() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, "first\nsecond\r\nthird ²".encode())
    os.close(write_end)
    reader = LineReader(read_end)
    prompts = io.StringIO()
    lines = [await reader.read("> ", prompts) for _ in range(5)]
    assert lines == ["first", "second", "third ²", None, None]
    assert prompts.getvalue() == "> " * 5
    os.close(read_end)


def test_writing_into_a_closed_pipe_ends_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    stream = os.fdopen(write_end, "w")
    writer = TerminalWriter(stream)
    with pytest.raises(OutputClosed):
        for _ in range(1000):  # the pipe's buffer may take a few lines first
            writer.write("a line nobody reads")
    with pytest.raises(OutputClosed):
        writer.write("and nothing after it")
    with pytest.raises(OutputClosed):
        writer.clear()
    stream.close()  # flushing at exit cannot fail: the descriptor now points at /dev/null


def test_a_screen_is_cleared_with_blank_lines_when_it_is_not_a_terminal() -> None:
    stream = io.StringIO()
    TerminalWriter(stream).clear()
    assert stream.getvalue().strip() == "" and stream.getvalue().count("\n") >= 24
