#!/usr/bin/env python3
"""DECODE against conventional striping: `python3 tools/decode_sweep.py [--quick]` (fcal_tools.decode_sweep)."""
import sys

from fcal_tools.decode_sweep import main

sys.exit(main())
