#!/usr/bin/env python3
"""The thesis reproduced: `python3 tools/sweep_thesis.py` writes docs/thesis/ (fcal_tools.thesis)."""
import sys

from fcal_tools.thesis import main

sys.exit(main())
