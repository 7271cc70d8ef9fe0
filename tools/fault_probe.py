#!/usr/bin/env python3
"""Random fault events close together, how the runs end: `python3 tools/fault_probe.py [--runs N]` (fcal_tools.fault_probe)."""
import sys

from fcal_tools.fault_probe import main

sys.exit(main())
