#!/usr/bin/env python3
"""Speed benchmark of fcal-sim: `python3 tools/bench.py [--quick] ...` (fcal_tools.bench)."""
import sys

from fcal_tools.bench import main

sys.exit(main())
