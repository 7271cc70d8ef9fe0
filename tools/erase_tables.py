#!/usr/bin/env python3
"""Erasure of 14 disks beside the erasure thesis: `python3 tools/erase_tables.py calibrate|tables` (fcal_tools.erase_tables)."""
import sys

from fcal_tools.erase_tables import main

sys.exit(main())
