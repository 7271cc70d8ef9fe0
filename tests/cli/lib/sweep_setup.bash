# Shared by the sweep tool's CLI tests (sourced, not a test of its own): the bin dir ($1), the Python
# with matplotlib (Debian's /usr/bin/python3 where it exists), the tool, and a scratch folder $out
# removed at exit (a script with more to clean up sets its own trap after sourcing this).
# Usage: source "$(dirname "$0")/lib/sweep_setup.bash" "$1"
bin=$(cd "$1" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
sweep="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/tools/sweep"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
