#!/usr/bin/env python3
"""Two fcal-sim builds, same results? `python3 tools/exactness.py --reference OLD_FCAL_SIM` (fcal_tools.exactness)."""
import sys

from fcal_tools.exactness import main

sys.exit(main())
