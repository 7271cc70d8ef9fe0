#!/usr/bin/env python3
"""The parameter reference (docs/parameters.md) from `fcal-sim --list-params --json` (fcal_tools.params_reference)."""
import sys

from fcal_tools.params_reference import main

sys.exit(main())
