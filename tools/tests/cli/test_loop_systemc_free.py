"""The LPSM, its credit accounting and the loop-initialization pieces are SystemC-free (docs/loop.md, "The port's
pieces"; docs/loop_init.md): neither they nor any header they include pulls in SystemC, so tests can drive the state
machine word by word without a kernel. Checked with the compiler's own list of included files (-M)."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from conftest import ROOT

FILES = ["lpsm.cpp", "circuit_credit.cpp", "word.cpp", "transmit_queue.cpp", "lpsm_state.cpp", "al_pa_bitmap.cpp",
         "loop_init_frame.cpp", "loop_init_procedure.cpp", "loop_init_timing.cpp", "port_bypass_circuits.cpp",
         "primitive_sequence_detector.cpp"]


@pytest.mark.parametrize("name", FILES)
def test_includes_no_systemc(name):
    cxx = os.environ.get("CXX", "c++")
    p = subprocess.run([cxx, "-std=c++17", "-M", "-I", os.path.join(ROOT, "models"),
                        os.path.join(ROOT, "models", "fcal", "loop", name)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"{cxx} -M loop/{name}: {p.stderr[:2000]}"
    systemc = [d for d in p.stdout.split() if re.search(r"systemc|sysc/", d, re.I)]
    assert not systemc, f"loop/{name} includes SystemC: {systemc[:3]}"
