"""fcal's Python tools: sweeps of fcal-sim on a local pool or a Dask cluster, plots with confidence bands,
the thesis's reproduction, the studies' scripts and the benchmarks. Every tool runs the simulator through
fcal_tools.sim.run_sim and runs in parallel through fcal_tools.engine. The commands are the launchers in
tools/ (e.g. `python3 tools/sweep run SPEC`); see README.md, "Sweeps and the thesis"."""
