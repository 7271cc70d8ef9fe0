#!/usr/bin/env python3
"""The rebuild trade-off figure: `python3 tools/rebuild_sweep.py` (fcal_tools.rebuild_sweep)."""
import sys

from fcal_tools.rebuild_sweep import main

sys.exit(main())
