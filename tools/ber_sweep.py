#!/usr/bin/env python3
"""IOPS and retries against the bit error rate: `python3 tools/ber_sweep.py ...` (fcal_tools.ber_sweep)."""
import sys

from fcal_tools.ber_sweep import main

sys.exit(main())
