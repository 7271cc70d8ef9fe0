"""Where runs execute: a local pool of simulator processes, or a Dask distributed cluster. Both call
run.run_point with the same arguments and yield (index, outcome) as runs finish, so the rows they give
are the same; only the order of completion differs. An outcome of None is a run the sweep stopped (it is
not recorded)."""
import os
import signal
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed

from . import run as run_mod


class Children:
    """The simulations a local sweep has running, so that an interrupted sweep stops them all."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = set()
        self._stopping = False

    def start(self, args, **kwargs):
        """subprocess.Popen(args, **kwargs), or None once stop_all() was called. (Started under the lock, so
        that no simulation starts unseen by stop_all.)"""
        with self._lock:
            if self._stopping:
                return None
            proc = subprocess.Popen(args, **kwargs)
            self._running.add(proc)
            return proc

    def finish(self, proc):
        """proc has ended; True if the sweep is stopping (its outcome is not to be recorded)."""
        with self._lock:
            self._running.discard(proc)
            return self._stopping

    def stop_all(self):
        """Starts no more and sends SIGTERM to the running ones (each in its own session: its process group),
        which end cleanly, writing nothing; waits until they have."""
        with self._lock:
            self._stopping = True
            running = list(self._running)
        for proc in running:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in running:
            proc.wait()


def local(tasks, jobs):
    """tasks: [(index, args)]. Each worker thread waits on one fcal-sim process, so `jobs` simulations run at
    once; the simulations are separate processes (the pool's threads only start and read them). When the
    consumer stops early (an interruption raised while it waits), the simulations still running are stopped
    before the pool is shut down, so that nothing outlives the sweep."""
    jobs = jobs or os.cpu_count() or 1
    children = Children()
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = {pool.submit(run_mod.run_point, *args, children=children): index for index, args in tasks}
    try:
        for f in as_completed(futures):
            yield futures[f], f.result()
    finally:
        for f in futures:
            f.cancel()
        children.stop_all()
        pool.shutdown(wait=True)


def dask(tasks, scheduler):
    """The same runs on a Dask cluster (`dask scheduler`, `dask worker`). The workers must see fcal-sim at
    the same path as this machine (a shared file system or an identical install). An interrupted sweep
    cancels what has not started; a run already going on a worker finishes there (Dask cannot stop a
    running task) and is not recorded."""
    try:
        import cloudpickle
        from distributed import Client, as_completed as dask_completed
    except ImportError as e:
        raise SystemExit(f"sweep: --scheduler needs Dask distributed (Debian: python3-distributed): {e}")
    # Ship run_point by value: the workers need not have this package on their path.
    cloudpickle.register_pickle_by_value(run_mod)
    client = Client(scheduler, timeout="30s")
    try:
        futures = {}
        for index, args in tasks:
            futures[client.submit(run_mod.run_point, *args, pure=False)] = index
        for f in dask_completed(list(futures)):
            yield futures[f], f.result()
    finally:
        client.cancel(list(futures))
        client.close()
