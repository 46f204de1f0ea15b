#!/usr/bin/env bash
# Runs the ONNX backend node tests and fails when a test listed in passing.txt does not
# pass (a regression). Tests that pass but are not listed are reported, so the manifest
# can grow with scripts/update-manifest.
set -euo pipefail
cli=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${BOUGH_CONFORMANCE_DIR:-}
if [ -z "$dir" ]; then
  for d in "$root/../shared/conformance/onnx-node" /usr/share/libonnx-testdata/data/node; do
    if [ -d "$d" ]; then dir=$d; break; fi
  done
fi
if [ -z "$dir" ]; then echo "no conformance data found"; exit 0; fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
set +e
"$cli" test-data "$dir" > "$out"
set -e
tail -n 1 "$out"
missing=0
while read -r name; do
  [ -z "$name" ] && continue
  [ -d "$dir/$name" ] || continue  # an older suite (libonnx-testdata) lacks newer tests
  if ! grep -qx "PASS $name" "$out"; then
    echo "REGRESSION: $name: $(grep -m1 " $name" "$out" || echo 'no result')"
    missing=$((missing + 1))
  fi
done < "$here/passing.txt"
new=$(grep '^PASS ' "$out" | cut -d' ' -f2 | sort | comm -23 - <(sort "$here/passing.txt") | wc -l)
echo "manifest: $(grep -c . "$here/passing.txt") listed, $missing regressed, $new passing but not listed"
[ "$missing" -eq 0 ]
