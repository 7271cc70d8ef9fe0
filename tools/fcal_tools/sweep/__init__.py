"""fcal sweeps: run fcal-sim over a spec's points and seeds on a local pool or a Dask cluster, summarise
(mean and 95 % CI per point) and plot. See docs/model.md, "Sweeps", and `python3 tools/sweep --help`."""
