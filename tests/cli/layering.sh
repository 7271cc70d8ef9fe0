#!/usr/bin/env bash
# A layer includes headers only from layers below it (README, "Tour"):
#   kernel < phy < loop < fcp < disk < hba < cosim < host < controller < sim
# (the disk is a TLM target the target HBA drives, so the protocol between them is the disk's)
# Fails naming the file and the include that reaches upward or sideways.
set -euo pipefail
models=$(cd "$(dirname "$0")/../../models/fcal" && pwd)
declare -A rank=([kernel]=-1 [phy]=0 [loop]=1 [fcp]=2 [disk]=3 [hba]=4 [cosim]=5 [host]=6 [controller]=7 [sim]=8)
bad=0
for dir in "$models"/*/; do
    layer=$(basename "$dir")
    [[ -n "${rank[$layer]:-}" ]] || { echo "FAIL: models/fcal/$layer is not in the layer order of this check"; exit 1; }
    while IFS= read -r hit; do
        file=${hit%%:*}
        inc=$(sed -E 's/.*#include "fcal\/([a-z_]+)\/.*/\1/' <<<"$hit")
        [[ -n "${rank[$inc]:-}" ]] || continue
        if [[ $inc != "$layer" && ${rank[$inc]} -ge ${rank[$layer]} ]]; then
            echo "FAIL: models/fcal/$layer/$(basename "$file") includes from $inc, which is not below $layer"
            bad=$((bad + 1))
        fi
    done < <(grep -HE '^#include "[a-z_]+/' "$dir"*.hpp "$dir"*.cpp 2>/dev/null || true)
done
[[ $bad -eq 0 ]] || exit 1
echo "layering: 1 passed, 0 failed"
