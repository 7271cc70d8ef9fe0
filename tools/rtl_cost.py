#!/usr/bin/env python3
"""What the RTL co-simulation costs: `python3 tools/rtl_cost.py [--vcd-sizes]` (fcal_tools.rtl_cost)."""
import sys

from fcal_tools.rtl_cost import main

sys.exit(main())
