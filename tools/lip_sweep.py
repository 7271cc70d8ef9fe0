#!/usr/bin/env python3
"""Loop-down time and lost throughput of one LIP against the number of ports: `python3 tools/lip_sweep.py`
(fcal_tools.lip_sweep)."""
import sys

from fcal_tools.lip_sweep import main

sys.exit(main())
