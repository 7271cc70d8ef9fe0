"""What every tool's command line shares: modules checked before anything runs, and one line (never a
traceback) for an interruption, a failed simulation or bad input."""
from __future__ import annotations

import importlib
import signal
import sys
from typing import Callable, NoReturn

from .sim import SimError

# Module -> the Debian package that provides it (scripts/setup.sh installs them).
DEBIAN_PACKAGES = {"matplotlib": "python3-matplotlib", "distributed": "python3-distributed",
                   "cloudpickle": "python3-cloudpickle"}


class UsageError(ValueError):
    """Bad input or a missing module: one line, exit code 2."""


def require(tool: str, module: str, why: str) -> None:
    """UsageError in one line if this Python cannot import `module` (checked before the tool runs anything,
    not when it is first used)."""
    try:
        importlib.import_module(module)
    except ImportError:
        package = DEBIAN_PACKAGES.get(module, f"python3-{module}")
        raise UsageError(f"{tool}: {why} needs the Python module {module}, which {sys.executable} lacks: "
                         f"install {package} (bash scripts/setup.sh does) and use that python3 (/usr/bin/python3)")


def fail(tool: str, message: str, code: int = 2) -> NoReturn:
    print(f"{tool}: {message}", file=sys.stderr)
    raise SystemExit(code)


def guard(tool: str, main: Callable[[], int | None]) -> int:
    """Runs a tool's main: a usage error or missing module is one line and exit 2, a simulation the tool
    cannot use one line and exit 1, Ctrl-C one line and exit 130 (the tool's own resume hint, if any, is
    printed by the tool)."""
    try:
        return main() or 0
    except UsageError as e:
        print(str(e) if str(e).startswith(tool) else f"{tool}: {e}", file=sys.stderr)
        return 2
    except SimError as e:
        print(f"{tool}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the clean-up
        print(f"\n{tool}: interrupted (SIGINT)", file=sys.stderr)
        return 128 + signal.SIGINT
    except BrokenPipeError:
        return 1
