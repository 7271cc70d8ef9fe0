"""`python3 -m fcal_tools.sweep ...` (with tools/ on the path): the same as `python3 tools/sweep ...`."""
import sys

from .cli import main

sys.exit(main())
