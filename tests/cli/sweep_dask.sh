#!/usr/bin/env bash
# The sweep tool on a real Dask cluster: a scheduler and two workers started as processes on 127.0.0.1
# run a small sweep, and its rows (runs.csv, in any order) and summary (byte for byte) are the local
# pool's. A wrapper around fcal-sim records its parent process, so the test also sees that the runs
# were executed by the two worker processes and not by the client.
set -euo pipefail
source "$(dirname "$0")/lib/sweep_setup.bash" "$1"
dask_cmd=/usr/bin/dask
if [ ! -x "$dask_cmd" ] || ! "$py" -c "import distributed" 2>/dev/null; then
  echo "FAIL: Dask distributed is missing (Debian: python3-distributed; bash scripts/setup.sh installs it)"; exit 1
fi
pids=()
# Workers first, then the scheduler; a worker can still hang in its graceful close (seen once under
# load, with the scheduler gone): after 10 s whatever is left gets SIGKILL rather than a wait forever.
cleanup() {
  local p alive
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for _ in $(seq 100); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$out"
}
trap cleanup EXIT

# (The sweep's own checks on the client, --list-params and the dry runs, marked FCAL_SWEEP_CHECK=1, are not
# the sweep's runs.)
cat >"$out/wrap.sh" <<WRAP
#!/usr/bin/env bash
[ -n "\${FCAL_SWEEP_CHECK:-}" ] || echo "\$PPID" >>"$out/parents"
exec "$bin/fcal-sim" "\$@"
WRAP
chmod +x "$out/wrap.sh"

cat >"$out/tiny.toml" <<'SPEC'
name = "tiny"
seeds = 2
results = ["iops", "mb_per_s", "mean_response_us"]
labels = ["arm"]
[fixed]
"workload.measured_ios" = 50
"disk.count" = 4
[grid]
"workload.io_size" = [4096, 32768]
[[zip]]
arm = ["normal", "cmdf", "unfair"]
schedule = ["normal", "cmdf", "normal"]
"initiator.fair" = [true, true, false]
SPEC

"$py" "$sweep" run "$out/tiny.toml" --out "$out/local" --jobs 2 --fcal-sim "$bin/fcal-sim" 2>"$out/local.log" || {
  cat "$out/local.log"; echo "FAIL: the local sweep did not run"; exit 1; }

# A free port on loopback for the scheduler.
port=$("$py" -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
addr="tcp://127.0.0.1:$port"
(cd "$out" && exec "$dask_cmd" scheduler --host 127.0.0.1 --port "$port" --no-dashboard >"$out/scheduler.log" 2>&1) &
pids+=($!)
for w in 1 2; do
  (cd "$out" && exec "$dask_cmd" worker "$addr" --no-nanny --nthreads 1 --no-dashboard --name "w$w" \
      --local-directory "$out/w$w" >"$out/worker$w.log" 2>&1) &
  pids+=($!)
done
"$py" - "$addr" <<'PY' || { cat "$out"/*.log; echo "FAIL: the Dask cluster did not come up"; exit 1; }
import sys
from distributed import Client
with Client(sys.argv[1], timeout="60s") as c:
    c.wait_for_workers(2, timeout=60)
PY

"$py" "$sweep" run "$out/tiny.toml" --out "$out/dask" --scheduler "$addr" --fcal-sim "$out/wrap.sh" 2>"$out/dask.log" || {
  cat "$out/dask.log" "$out/dask/runs.csv"; echo "FAIL: the Dask sweep did not run"; exit 1; }

n=$(($(wc -l <"$out/local/runs.csv") - 1))
[ "$n" -eq 12 ] || { echo "FAIL: $n local rows, expected 2 sizes x 3 arms x 2 seeds = 12"; exit 1; }
grep -q ",failed," "$out/local/runs.csv" && { echo "FAIL: a local run failed"; cat "$out/local/runs.csv"; exit 1; }
# The rows but their `build` column, which names the binary each ran (here the wrapper on the cluster).
"$py" - "$out/local/runs.csv" "$out/dask/runs.csv" "$out/wrap.sh" "$bin/fcal-sim" <<'PY' || { echo "FAIL: Dask rows differ from the local pool's"; exit 1; }
import csv, hashlib, sys
def rows(path, program):
    build = hashlib.sha256(open(program, "rb").read()).hexdigest()[:12]
    out = []
    for r in csv.DictReader(open(path)):
        assert r.pop("build") == build, (path, "a row not made by", program)
        out.append(sorted(r.items()))
    return sorted(out)
local, dask = rows(sys.argv[1], sys.argv[4]), rows(sys.argv[2], sys.argv[3])
assert local == dask, [r for r in local if r not in dask][:2]
PY
cmp -s "$out/local/summary.csv" "$out/dask/summary.csv" || {
  diff "$out/local/summary.csv" "$out/dask/summary.csv"; echo "FAIL: summaries differ"; exit 1; }

# Every simulation was started by one of the two worker processes, and both took part.
worker_pids=" ${pids[1]} ${pids[2]} "
runs=$(wc -l <"$out/parents")
[ "$runs" -eq 12 ] || { echo "FAIL: $runs simulations on the cluster, expected 12"; exit 1; }
for p in $(sort -u "$out/parents"); do
  case "$worker_pids" in *" $p "*) ;; *) echo "FAIL: a run was started by pid $p, not a worker ($worker_pids)"; exit 1;; esac
done
used=$(sort -u "$out/parents" | wc -l)
[ "$used" -eq 2 ] || { echo "FAIL: only $used of 2 workers ran simulations"; exit 1; }
echo "sweep dask: 1 passed, 0 failed"
