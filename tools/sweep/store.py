"""The results file of a sweep: one CSV row per finished run (point x seed), appended atomically.

Each row is written with one write(2) on a file opened with O_APPEND and then fsync'ed, so a run is
either wholly in the file or not at all; a last line without its newline (the process was killed in
the middle of the call) is cut off when the file is opened again. Reopening the file tells which runs
are done, so an interrupted sweep resumes with exactly the runs that are missing.

One `sweep run` at a time writes a folder: it holds an exclusive lock (flock) on DIR/.sweep.lock for as
long as it runs (the system releases it however the process ends), and a second one is refused.
"""
import csv
import fcntl
import io
import os

from . import spec as spec_mod

STATUS_COLUMNS = ["seed", "status", "exit_code", "stderr_tail"]


class StoreError(RuntimeError):
    pass


def lock_folder(folder):
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


def columns(spec):
    return spec.columns + STATUS_COLUMNS + spec.results


def row_key(spec, record):
    """(point key, seed) of a record read back from the file (all values are text there)."""
    point = tuple(sorted((k, record[k]) for k in spec.columns if record.get(k, "") != ""))
    return point, int(record["seed"])


def format_value(v):
    if v is None:
        return ""
    return spec_mod.value_text(v)


class ResultsFile:
    def __init__(self, path, spec):
        self.path = path
        self.spec = spec
        self.header = columns(spec)
        self.records = []
        if os.path.exists(path) and os.path.getsize(path) > 0:
            self._load()
        else:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self._append_line(self.header)

    def _load(self):
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
        if rows[0] != self.header:
            raise StoreError(f"{self.path}: its columns are not this spec's ({rows[0]} vs {self.header}); "
                             "use another --out or --fresh")
        self.records = [dict(zip(self.header, r)) for r in rows[1:]]

    def _append_line(self, fields):
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(fields)
        data = buf.getvalue().encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise StoreError(f"{self.path}: short write")
            os.fsync(fd)
        finally:
            os.close(fd)

    def done(self, retry_failed=False):
        """Keys of the runs already recorded (failed ones too, unless they are to be retried)."""
        keys = set()
        for r in self.records:
            if retry_failed and r["status"] != "ok":
                continue
            keys.add(row_key(self.spec, r))
        return keys

    def append(self, point, seed, outcome):
        fields = [format_value(point.get(k)) for k in self.spec.columns]
        fields += [str(seed), outcome["status"], str(outcome["exit_code"]), outcome["stderr_tail"]]
        fields += [format_value(outcome.get(k)) for k in self.spec.results]
        self._append_line(fields)
        self.records.append(dict(zip(self.header, fields)))
