"""Where runs execute: a local pool of simulator processes, or a Dask distributed cluster. Both call
run.run_point with the same arguments and yield (index, outcome) as runs finish, so the rows they give
are the same; only the order of completion differs."""
import os
from concurrent.futures import ThreadPoolExecutor, as_completed

from . import run as run_mod


def local(tasks, jobs):
    """tasks: [(index, args)]. Each worker thread waits on one fcal-sim process, so `jobs` simulations run at
    once; the simulations are separate processes (the pool's threads only start and read them)."""
    jobs = jobs or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_mod.run_point, *args): index for index, args in tasks}
        try:
            for f in as_completed(futures):
                yield futures[f], f.result()
        finally:
            for f in futures:
                f.cancel()


def dask(tasks, scheduler):
    """The same runs on a Dask cluster (`dask scheduler`, `dask worker`). The workers must see fcal-sim at
    the same path as this machine (a shared file system or an identical install)."""
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
        client.close()
