"""The one engine that runs simulations in parallel, for the sweep tool and every script: a local pool of
fcal-sim processes, or a Dask distributed cluster. A task is a function called with its arguments (and,
locally, `children=`, which it passes to fcal_tools.sim.run_sim); results come back as (index, value) as
tasks finish, so the rows a sweep records are the same whichever backend ran them; only the order of
completion differs.

An interrupted tool (an exception, Ctrl-C, SIGTERM raised in the main thread while it waits) stops the
simulations still running before the pool is shut down, so that nothing outlives it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from types import ModuleType
from typing import Any, Callable, Iterator, Sequence, TypeVar

T = TypeVar("T")


class Children:
    """The simulations a local pool has running, so that an interrupted tool stops them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen[str]] = set()
        self._stopping = False

    def start(self, args: list[str], **kwargs: Any) -> subprocess.Popen[str] | None:
        """subprocess.Popen(args, **kwargs), or None once stop_all() was called. (Started under the lock, so
        that no simulation starts unseen by stop_all.)"""
        with self._lock:
            if self._stopping:
                return None
            proc: subprocess.Popen[str] = subprocess.Popen(args, **kwargs)
            self._running.add(proc)
            return proc

    def finish(self, proc: subprocess.Popen[str]) -> bool:
        """proc has ended; True if the pool is stopping (its outcome is not to be recorded)."""
        with self._lock:
            self._running.discard(proc)
            return self._stopping

    def stop_all(self) -> None:
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


def local(fn: Callable[..., T], tasks: Sequence[tuple[Any, ...]], jobs: int | None = None) -> Iterator[tuple[int, T]]:
    """fn(*args, children=...) for every args of `tasks`, `jobs` at a time (default: every core), as they
    finish. Each worker thread waits on its fcal-sim processes; the simulations are separate processes."""
    jobs = jobs or os.cpu_count() or 1
    children = Children()
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures: dict[Future[T], int] = {pool.submit(fn, *args, children=children): i for i, args in enumerate(tasks)}
    try:
        for f in as_completed(futures):
            yield futures[f], f.result()
    finally:
        for f in futures:
            f.cancel()
        children.stop_all()
        pool.shutdown(wait=True)


def dask(fn: Callable[..., T], tasks: Sequence[tuple[Any, ...]], scheduler: str,
         by_value: Sequence[ModuleType] = ()) -> Iterator[tuple[int, T]]:
    """The same tasks on a Dask cluster (`dask scheduler`, `dask worker`). The workers must see fcal-sim at the
    same path as this machine (a shared file system or an identical install). `by_value`: the modules whose
    code is shipped to the workers (which need not have this package). An interrupted tool cancels what has
    not started; a task already going on a worker finishes there (Dask cannot stop it) and is dropped."""
    import cloudpickle
    from distributed import Client
    from distributed import as_completed as dask_completed
    for module in by_value:
        cloudpickle.register_pickle_by_value(module)
    client = Client(scheduler, timeout="30s")
    futures: dict[Any, int] = {}
    try:
        for i, args in enumerate(tasks):
            futures[client.submit(fn, *args, pure=False)] = i
        for f in dask_completed(list(futures)):
            yield futures[f], f.result()
    finally:
        client.cancel(list(futures))
        client.close()


def in_order(fn: Callable[..., T], tasks: Sequence[tuple[Any, ...]], jobs: int | None = None) -> Iterator[T]:
    """fn over every task on the local pool; the values in the order of `tasks`, each as soon as it and those
    before it are done."""
    done: dict[int, T] = {}
    following = 0
    for i, value in local(fn, tasks, jobs):
        done[i] = value
        while following in done:
            yield done.pop(following)
            following += 1


def run_all(fn: Callable[..., T], tasks: Sequence[tuple[Any, ...]], jobs: int | None = None) -> list[T]:
    """fn over every task on the local pool; the values in the order of `tasks`."""
    return list(in_order(fn, tasks, jobs))
