#!/usr/bin/env python3
"""RAID 5 IOPS and the M/D/1 check: `python3 tools/raid_sweep.py [--quick]` (fcal_tools.raid_sweep)."""
import sys

from fcal_tools.raid_sweep import main

sys.exit(main())
