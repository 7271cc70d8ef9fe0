"""A layer includes headers only from layers below it (docs/model.md, "Source layout"):
kernel < phy < loop < fcp < disk < hba < cosim < host < controller < sim (the disk is a TLM target the target HBA
drives, so the protocol between them is the disk's). Fails naming each file and the include that reaches up."""
from __future__ import annotations

import glob
import os
import re

from conftest import ROOT

ORDER = ["kernel", "phy", "loop", "fcp", "disk", "hba", "cosim", "host", "controller", "sim"]
MODELS = os.path.join(ROOT, "models", "fcal")
INCLUDE = re.compile(r'^#include "fcal/([a-z_]+)/', re.M)


def test_every_layer_is_in_the_order():
    layers = sorted(d for d in os.listdir(MODELS) if os.path.isdir(os.path.join(MODELS, d)))
    assert layers, f"no layers in {MODELS}"
    unknown = [d for d in layers if d not in ORDER]
    assert not unknown, f"models/fcal/{unknown[0]} is not in the layer order of this check"


def test_includes_reach_only_down():
    upward = []
    for layer in ORDER:
        for path in sorted(glob.glob(os.path.join(MODELS, layer, "*.[hc]pp"))):
            with open(path) as f:
                for used in INCLUDE.findall(f.read()):
                    if used in ORDER and used != layer and ORDER.index(used) >= ORDER.index(layer):
                        upward.append(f"models/fcal/{layer}/{os.path.basename(path)} includes from {used}")
    assert not upward, "includes that are not from a layer below:\n" + "\n".join(upward)
