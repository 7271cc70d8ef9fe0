#!/usr/bin/env python3
"""The loop-failure timeline figure: `python3 tools/loop_failover.py` (fcal_tools.loop_failover)."""
import sys

from fcal_tools.loop_failover import main

sys.exit(main())
