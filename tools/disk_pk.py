#!/usr/bin/env python3
"""One zoned disk against the Pollaczek-Khinchine formula: `python3 tools/disk_pk.py` (fcal_tools.disk_pk)."""
import sys

from fcal_tools.disk_pk import main

sys.exit(main())
