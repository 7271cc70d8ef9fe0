"""What the hand derivations of the golden port traces (traces/golden/README.md) share: the link's
time arithmetic in integer picoseconds and the port-watcher line a port writes when what it sends
changes. Nothing here reads the program or its output.

The simulator's time resolution is 1 ps; a span of n transmission words is one duration of
n x 40 / baud seconds rounded to the picosecond once (never n times the rounded word), a cable is
its length x ns/m rounded once, and a time is the sum of such spans as the protocol chains them.
"""
from __future__ import annotations

import math
import os


def rnd(x: float) -> int:
    """Round half away from zero to an integer (as llround)."""
    return int(math.floor(x + 0.5))


def seconds_ps(s: float) -> int:
    return rnd(s * 1e12)


class Link:
    """The timing model's constants of one loop: word time, cable, a port's repeat delay."""

    def __init__(self, baud: float, hop_m: float, ns_per_m: float, port_delay_words: int):
        self.baud = baud
        self.word_exact_ps = 40e12 / baud          # for "words the previous word lasted"
        self.cable = rnd(hop_m * ns_per_m * 1000)  # one hop's cable, ps
        # A hop: the cable and the receiving port's repeat delay. A port acts on (and repeats) a
        # word when its start has come through both (docs/loop.md, "Timing and round trip").
        self.hop = self.cable + self.words(port_delay_words)

    def words(self, n: int) -> int:
        """Duration of n transmission words in ps: n x 40 bits / baud, rounded once."""
        return rnd(n * 40e12 / self.baud)


def frame_words(payload_bytes: int) -> int:
    """SOF 1 + header 6 + payload words + CRC 1 + EOF 1."""
    return 1 + 6 + (payload_bytes + 3) // 4 + 1 + 1


class Trace:
    """The expected port-watcher lines, each `<ns> <AL_PA> <state> <words lasted> <old>=><new>`,
    with the terms that gave its time."""

    def __init__(self, link: Link):
        self.link = link
        self.lines: list[tuple[int, int, str, str]] = []

    def port(self, al_pa: int) -> "Port":
        return Port(self, al_pa)

    def sorted_lines(self) -> list[tuple[int, int, str, str]]:
        lines = sorted(self.lines, key=lambda x: (x[0], x[1]))
        # Lines at one instant must come from one port, in the order derived: the order of two
        # ports' lines at one instant would be the kernel's, not the protocol's.
        for (t1, _, l1, _), (t2, _, l2, _) in zip(lines, lines[1:]):
            assert t1 != t2 or l1.split()[1] == l2.split()[1], "two ports change at %d ps" % t1
        return lines

    def write(self, name: str, header: str) -> None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
        with open(path, "w") as f:
            f.write(header)
            for _, _, line, _ in self.sorted_lines():
                f.write(line + "\n")
        print("wrote", path)

    def show(self) -> None:
        for _, _, line, why in self.sorted_lines():
            print("%-45s  %s" % (line, why))


class Port:
    """One port's output: every port sends IDLE from time 0."""

    def __init__(self, trace: Trace, al_pa: int):
        self.trace = trace
        self.al_pa = al_pa
        self.word = "IDLE"
        self.since = 0

    def emit(self, t: int, state: str, new: str, why: str) -> None:
        assert t >= self.since, "%02X: %d ps before its previous change" % (self.al_pa, t)
        span = (t - self.since) / self.trace.link.word_exact_ps
        lasted = rnd(span)
        # Keep clear of half words, where a few picoseconds of rounding, or the simulator dividing
        # by the word time rounded to the ps (18824 ps at 2GFC, 0.0025 % long), would change the count.
        margin = 0.001 + span * 3e-5
        assert abs(span - math.floor(span) - 0.5) > margin, "span of %.4f words is too close to a half" % span
        self.trace.lines.append((t, len(self.trace.lines),
                                 "%.3f %02X %s %d %s=>%s" % (t / 1000.0, self.al_pa, state, lasted, self.word, new), why))
        self.word, self.since = new, t
