#!/usr/bin/env python3
"""The NORMAL vs CMDF experiment: `python3 tools/cmdf_sweep.py [--quick] ...` (fcal_tools.cmdf_sweep)."""
import sys

from fcal_tools.cmdf_sweep import main

sys.exit(main())
