"""The README's front page shows the main job's output: it must be what today's fcal-sim prints for the
baseline (apart from the wall time, which varies)."""
from __future__ import annotations

import os
import re
from typing import Any

from conftest import ROOT


def readme_baseline_block() -> list[str]:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("```\nfcal-sim: ") + len("```\n")
    return text[start:text.index("```", start)].splitlines()


def without_wall_time(lines: list[str]) -> list[str]:
    return [re.sub(r" in [0-9.]+ s wall$", " in - s wall", line) for line in lines]


def test_the_readme_shows_what_the_baseline_prints(fcal_sim: Any) -> None:
    r = fcal_sim()
    assert r.code == 0
    assert without_wall_time(readme_baseline_block()) == without_wall_time(r.out.splitlines())
