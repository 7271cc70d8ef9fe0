"""The results file of a sweep: one CSV row per finished run (point x seed), appended atomically.

Each row is written with one write(2) on a file opened with O_APPEND and then fsync'ed, so a run is
either wholly in the file or not at all; a last line without its newline (the process was killed in
the middle of the call) is cut off when the file is opened again. Reopening the file tells which runs
are done, so an interrupted sweep resumes with exactly the runs that are missing.

Each row records the build of fcal-sim that made it (`build`: fcal_tools.sim.build_identity); a resume
with another build is refused unless asked for (`mixed_builds`), so that old and new rows are not mixed
silently. A file written before builds were recorded is given an empty `build` column when opened.

One `sweep run` at a time writes a folder: it holds an exclusive lock (flock) on DIR/.sweep.lock for as
long as it runs (the system releases it however the process ends), and a second one is refused.
"""
from __future__ import annotations

import csv
import fcntl
import io
import os
from typing import Any, Mapping

from .point import Outcome
from .spec import Point, Spec, value_text

STATUS_COLUMNS = ["seed", "status", "exit_code", "stderr_tail", "build"]
Record = dict[str, str]


class StoreError(RuntimeError):
    pass


def lock_folder(folder: str) -> int:
    """Takes the folder's lock or raises StoreError naming the sweep that holds it. The lock lasts as long as
    the returned descriptor stays open (the process's life)."""
    path = os.path.join(folder, ".sweep.lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StoreError(f"{folder}: another `sweep run` (pid {holder}) is writing its results; "
                         "wait for it to end, or give another --out")
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def columns(spec: Spec) -> list[str]:
    return spec.columns + STATUS_COLUMNS + spec.results


def row_key(spec: Spec, record: Mapping[str, str]) -> tuple[tuple[tuple[str, str], ...], int]:
    """(point key, seed) of a record read back from the file (all values are text there)."""
    point = tuple(sorted((k, record[k]) for k in spec.columns if record.get(k, "") != ""))
    return point, int(record["seed"])


def format_value(v: Any) -> str:
    if v is None:
        return ""
    return value_text(v)


def _csv_line(fields: list[str]) -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(fields)
    return buf.getvalue().encode()


class ResultsFile:
    def __init__(self, path: str, spec: Spec):
        self.path = path
        self.spec = spec
        self.header = columns(spec)
        self.records: list[Record] = []
        if os.path.exists(path) and os.path.getsize(path) > 0:
            self._load()
        else:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self._append_line(self.header)

    def _load(self) -> None:
        with open(self.path, "rb") as f:
            data = f.read()
        if not data.endswith(b"\n"):
            # A row cut short by a kill: drop it (its run is repeated, it was never recorded).
            keep = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as f:
                f.truncate(keep)
                f.flush()
                os.fsync(f.fileno())
            data = data[:keep]
            if keep == 0:
                self._append_line(self.header)
                return
        rows = list(csv.reader(io.StringIO(data.decode())))
        old_header = [c for c in self.header if c != "build"]
        if rows[0] == old_header:  # written before builds were recorded: add the column, empty
            at = self.header.index("build")
            rows = [self.header] + [r[:at] + [""] + r[at:] for r in rows[1:]]
            self._rewrite(rows)
        if rows[0] != self.header:
            raise StoreError(f"{self.path}: its columns are not this spec's ({rows[0]} vs {self.header}); "
                             "use another --out or --fresh")
        self.records = [dict(zip(self.header, r)) for r in rows[1:]]

    def _rewrite(self, rows: list[list[str]]) -> None:
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            for r in rows:
                f.write(_csv_line(r))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def _append_line(self, fields: list[str]) -> None:
        data = _csv_line(fields)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise StoreError(f"{self.path}: short write")
            os.fsync(fd)
        finally:
            os.close(fd)

    def done(self, retry_failed: bool = False) -> set[tuple[tuple[tuple[str, str], ...], int]]:
        """Keys of the runs already recorded (failed ones too, unless they are to be retried)."""
        keys = set()
        for r in self.records:
            if retry_failed and r["status"] != "ok":
                continue
            keys.add(row_key(self.spec, r))
        return keys

    def other_builds(self, build: str) -> dict[str, int]:
        """{build: rows} of the rows made by another build than `build` ("" : rows that record none)."""
        counts: dict[str, int] = {}
        for r in self.records:
            if r["build"] != build:
                counts[r["build"]] = counts.get(r["build"], 0) + 1
        return counts

    def append(self, point: Point, seed: int, outcome: Outcome) -> None:
        fields = [format_value(point.get(k)) for k in self.spec.columns]
        fields += [str(seed), outcome["status"], str(outcome["exit_code"]), outcome["stderr_tail"],
                   outcome.get("build", "")]
        fields += [format_value(outcome.get(k)) for k in self.spec.results]
        self._append_line(fields)
        self.records.append(dict(zip(self.header, fields)))
