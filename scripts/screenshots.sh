#!/usr/bin/env bash
# Regenerates the waveform screenshots in docs/images/ from the current model (traces/README.md):
# makes each VCD with build/bin/fcal-sim into traces/out/, opens it in GTKWave with its save file on
# a virtual X display, and captures the screen. Needs gtkwave, xvfb and imagemagick (Debian):
#   apt-get install -y gtkwave xvfb xauth imagemagick
# Usage: bash scripts/screenshots.sh [SECONDS]   (how long GTKWave gets to draw before the capture; 6)
set -euo pipefail
cd "$(dirname "$0")/.."
wait_s="${1:-6}"
for tool in gtkwave xvfb-run import; do
  command -v "$tool" >/dev/null || { echo "screenshots: $tool missing (apt-get install -y gtkwave xvfb xauth imagemagick)" >&2; exit 2; }
done
sim=build/bin/fcal-sim
[ -x "$sim" ] || { echo "screenshots: no $sim: build first (bash scripts/setup.sh)" >&2; exit 2; }
export SC_COPYRIGHT_MESSAGE=DISABLE
mkdir -p traces/out

# The runs: the same commands as in the save files' headers and traces/README.md.
"$sim" --quiet --set disk.count=4 --set workload.io_size=16K --set workload.queue_depth=1 --set workload.measured_ios=8 \
  --set workload.warmup_ios=0 --set schedule=cmdf --vcd traces/out/arbitration_window.vcd
"$sim" --quiet --set disk.count=4 --set workload.type=open --set workload.rate_iops=3000 --set workload.read_fraction=0.7 \
  --set workload.io_size=192K --set workload.measured_ios=4 --set workload.warmup_ios=0 --set workload.seed=16 \
  --set cmdf.impl=rtl --vcd traces/out/cmdf_rtl.vcd
"$sim" --quiet --set disk.count=2 --set loop.initialize_at_start=true --set workload.measured_ios=4 --set workload.warmup_ios=0 \
  --vcd traces/out/loop_init.vcd --vcd-window 0:36

# shot VCD SAVEFILE PNG WIDTHxHEIGHT: GTKWave full screen on a display of that size, then the screen.
shot() {
  xvfb-run -a -s "-screen 0 $4x24" sh -c "gtkwave --rcvar 'fill_waveform 1' '$1' '$2' >/dev/null 2>&1 & pid=\$!
    sleep $wait_s; import -window root '$3'; kill \$pid"
  echo "screenshots: $3"
}
shot traces/out/arbitration_window.vcd traces/arbitration_window.gtkw docs/images/arbitration_window.png 1600x900
shot traces/out/cmdf_rtl_rtl.vcd traces/cmdf_rtl.gtkw docs/images/cmdf_rtl.png 1600x1000
shot traces/out/loop_init.vcd traces/loop_init.gtkw docs/images/loop_init.png 1600x460
