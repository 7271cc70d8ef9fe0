"""A progress bar with an estimate of the time left, on stderr."""
from __future__ import annotations

import sys
import time
from typing import TextIO


def clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    def __init__(self, total: int, already: int, stream: TextIO | None = None, width: int = 30):
        self.total = total
        self.already = already  # recorded by an earlier, interrupted run
        self.done = 0           # finished in this run
        self.failed = 0
        self.start = time.monotonic()
        self.stream = stream or sys.stderr
        self.width = width
        self.tty = self.stream.isatty()
        self.last = 0.0

    def line(self) -> str:
        n = self.already + self.done
        frac = n / self.total if self.total else 1.0
        fill = int(frac * self.width)
        elapsed = time.monotonic() - self.start
        todo = self.total - n
        eta = clock(elapsed / self.done * todo) if self.done else "?"
        failed = f", {self.failed} failed" if self.failed else ""
        return (f"[{'#' * fill}{'.' * (self.width - fill)}] {n}/{self.total} runs{failed}, "
                f"elapsed {clock(elapsed)}, left ~{eta}")

    def step(self, ok: bool) -> None:
        self.done += 1
        self.failed += 0 if ok else 1
        now = time.monotonic()
        finished = self.already + self.done == self.total
        if self.tty:
            self.stream.write("\r" + self.line() + ("\n" if finished else ""))
        elif finished or now - self.last >= 5.0 or self.done == 1:
            self.stream.write(self.line() + "\n")
            self.last = now
        self.stream.flush()
