"""Running fcal-sim: `run_sim` is the one function every tool starts the simulator with; `list_params` reads
its parameter table (`--list-params --json`); `build_identity` names the build a result came from.

Standard library only, and nothing from the rest of the package: the Dask backend ships this module to its
workers by value (fcal_tools.engine).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from typing import Any, Protocol, Sequence, Union

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _default_fcal_sim() -> str:
    """build/bin/fcal-sim of this source tree; where the package is installed elsewhere (pip install .), the
    fcal-sim on PATH (cmake --install) if there is one."""
    built = os.path.join(ROOT, "build", "bin", "fcal-sim")
    installed = shutil.which("fcal-sim")
    return installed if installed and not os.path.exists(os.path.join(ROOT, "tools", "fcal_tools")) else built


DEFAULT_FCAL_SIM = _default_fcal_sim()
STDERR_TAIL = 400  # characters of stderr kept where a run's failure is recorded on one line

# A setting is "key=value" or (key, value text).
Setting = Union[str, tuple[str, str]]


class SimError(RuntimeError):
    """A run of fcal-sim that a tool cannot use; the message is one line."""


class Starter(Protocol):
    """What starts and keeps the simulations of a pool (fcal_tools.engine.Children), so that an interrupted
    tool can stop them."""

    def start(self, args: list[str], **kwargs: Any) -> subprocess.Popen[str] | None: ...

    def finish(self, proc: subprocess.Popen[str]) -> bool: ...


@dataclass
class SimRun:
    """One finished (or stopped) run: what was run, how it ended, what it printed and its stats JSON."""
    args: list[str]
    exit_code: int
    stdout: str = ""
    stderr: str = ""
    stats: dict[str, Any] | None = None  # the --stats-json document, when asked for and readable
    stats_error: str = ""  # why `stats` is None although it was asked for
    timed_out: bool = False
    stopped: bool = False  # the pool was stopping: not started, or stopped before its end (record nothing)

    @property
    def results(self) -> dict[str, Any]:
        """The stats JSON's "results"; SimError if there are none."""
        if self.stats is None or not isinstance(self.stats.get("results"), dict):
            raise SimError(f"{self.describe()}: no results JSON ({self.stats_error or 'not asked for'})")
        results: dict[str, Any] = self.stats["results"]
        return results

    def describe(self) -> str:
        """The command line, short: the program's name and its --set values."""
        sets = [self.args[i + 1] for i, a in enumerate(self.args[:-1]) if a == "--set"]
        prog = next((os.path.basename(a) for a in self.args if a.endswith("fcal-sim")), os.path.basename(self.args[0]))
        return " ".join([prog] + sets) if sets else prog

    def check(self, ok: Sequence[int] = (0,)) -> SimRun:
        """self, or SimError naming the run, its exit code and the end of its stderr."""
        if self.timed_out:
            raise SimError(f"{self.describe()}: still running after the time allowed")
        if self.exit_code not in ok:
            raise SimError(f"{self.describe()}: exit {self.exit_code}: {tail(self.stderr)}")
        return self


def tail(text: str, limit: int = STDERR_TAIL) -> str:
    """The end of a program's stderr on one line."""
    text = text.strip()[-limit:]
    return " | ".join(line.strip() for line in text.splitlines() if line.strip())


def setting_args(settings: Sequence[Setting]) -> list[str]:
    args: list[str] = []
    for s in settings:
        args += ["--set", s if isinstance(s, str) else f"{s[0]}={s[1]}"]
    return args


def sim_env() -> dict[str, str]:
    return dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def run_sim(fcal_sim: str, settings: Sequence[Setting] = (), *, config: str | None = None,
            config_text: str | None = None, stats: str | None = "-", extra_args: Sequence[str] = (),
            prefix: Sequence[str] = (), quiet: bool = True, timeout_s: float | None = None,
            children: Starter | None = None, detach: bool = False, env: dict[str, str] | None = None) -> SimRun:
    """Runs `prefix... fcal_sim [--quiet] [--stats-json STATS] [--config FILE] extra_args... --set k=v...` and
    waits for it. config_text is a configuration given on stdin (--config /dev/stdin). stats "-" parses
    stdout; a path is read after the run; None asks for none. `children` (a pool's) starts and keeps the run.
    With `children` or `detach` the run starts in a session of its own with --stop-with-parent, so that a
    terminal's Ctrl-C reaches the tool, which stops its runs, and a killed tool's runs stop by themselves. Never raises for the run's own failure (see
    SimRun.check); an fcal-sim that cannot be started gives exit code 127."""
    args = list(prefix) + [fcal_sim]
    if quiet:
        args.append("--quiet")
    detach = detach or children is not None
    if detach:
        args.append("--stop-with-parent")
    if stats is not None:
        args += ["--stats-json", stats]
    if config_text is not None:
        args += ["--config", "/dev/stdin"]
    elif config is not None:
        args += ["--config", config]
    args += list(extra_args) + setting_args(settings)
    kwargs: dict[str, Any] = dict(stdin=subprocess.PIPE if config_text is not None else subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env or sim_env(), start_new_session=detach)
    try:
        proc = children.start(args, **kwargs) if children is not None else subprocess.Popen(args, **kwargs)
    except OSError as e:
        return SimRun(args, 127, stderr=f"{args[0]}: {e.strerror}")
    if proc is None:
        return SimRun(args, -1, stopped=True)
    run = SimRun(args, 0)
    try:
        run.stdout, run.stderr = proc.communicate(config_text, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        if detach:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
        run.stdout, run.stderr = proc.communicate()
        run.timed_out = True
    finally:
        run.stopped = children.finish(proc) if children is not None else False
    run.exit_code = -9 if run.timed_out else proc.returncode
    if stats is not None and not run.timed_out:
        _read_stats(run, stats)
    return run


def _read_stats(run: SimRun, stats: str) -> None:
    try:
        if stats == "-":
            text = run.stdout
        else:
            with open(stats, encoding="utf-8") as f:
                text = f.read()
        doc = json.loads(text)
    except OSError as e:
        run.stats_error = f"{stats}: {e.strerror}"
        return
    except ValueError as e:
        run.stats_error = f"not JSON: {e}"
        return
    if isinstance(doc, dict):
        run.stats = doc
    else:
        run.stats_error = "not a JSON object"


@dataclass(frozen=True)
class Param:
    """One entry of fcal-sim's parameter table. `default` and `range` are kept as fcal-sim gives them (text
    or typed values)."""
    key: str
    type: str
    unit: str
    per_disk: bool
    description: str
    default: Any = None
    range: Any = None


def list_params(fcal_sim: str, env: dict[str, str] | None = None) -> list[Param]:
    """fcal-sim's parameter table (`--list-params --json`); SimError with one line if it cannot be had."""
    run = run_sim(fcal_sim, stats=None, quiet=False, extra_args=["--list-params", "--json"], env=env).check()
    try:
        table = json.loads(run.stdout)
        return [Param(key=str(p["key"]), type=str(p.get("type", "")), unit=str(p.get("unit") or ""),
                      per_disk=bool(p.get("per_disk", False)), description=str(p.get("description", "")),
                      default=p.get("default"), range=p.get("range")) for p in table]
    except (ValueError, TypeError, KeyError) as e:
        raise SimError(f"{fcal_sim} --list-params --json: not the expected table: {e}")


# (No lock: a race only hashes a file twice; and a lock could not be shipped to Dask workers.)
_identities: dict[tuple[str, int, int, int, int], str] = {}


def build_identity(fcal_sim: str) -> str:
    """The first 12 hex digits of the SHA-256 of the fcal-sim binary: which build made a result (a rebuild
    that changes the program changes it). Cached per file version (device, inode, size, mtime); "" if the
    file cannot be read."""
    path = os.path.realpath(fcal_sim)
    try:
        st = os.stat(path)
    except OSError:
        return ""
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if key in _identities:
        return _identities[key]
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    identity = digest.hexdigest()[:12]
    _identities[key] = identity
    return identity
