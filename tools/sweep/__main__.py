# `python3 tools/sweep ...`: make the package importable by name, then run its command line.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sweep.cli import main  # noqa: E402

sys.exit(main())
