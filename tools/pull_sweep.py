#!/usr/bin/env python3
"""Loop-down time and lost throughput of a disk pulled under load against the number of ports:
`python3 tools/pull_sweep.py` (fcal_tools.pull_sweep)."""
import sys

from fcal_tools.pull_sweep import main

sys.exit(main())
