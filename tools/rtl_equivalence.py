#!/usr/bin/env python3
"""The RTL transmit queue against its SystemC reference: `python3 tools/rtl_equivalence.py [--quick]` (fcal_tools.rtl_equivalence)."""
import sys

from fcal_tools.rtl_equivalence import main

sys.exit(main())
