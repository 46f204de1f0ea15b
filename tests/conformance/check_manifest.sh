#!/usr/bin/env bash
# Runs the ONNX backend node tests and fails when a test listed in the manifest does not
# pass (a regression). Tests that pass but are not listed are reported, so the manifest
# can grow with scripts/update-manifest.
#
# Usage: check_manifest.sh CLI [MANIFEST]
#   MANIFEST   the list of tests that must pass: $BOUGH_MANIFEST, else passing.txt here.
# The suite is $BOUGH_CONFORMANCE_DIR, else ../shared/conformance/onnx-node beside the
# project, else Debian's libonnx-testdata. Nothing checked is a failure, never a pass:
#   - no suite fails, unless BOUGH_SKIP_CONFORMANCE=1, which exits 77 (a skip to ctest);
#   - a listed test with no folder in the suite fails, unless
#     BOUGH_ALLOW_MISSING_CONFORMANCE=1 (an older suite, e.g. libonnx-testdata, that
#     lacks newer tests): then it is only reported.
set -euo pipefail
cli=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
manifest=${2:-${BOUGH_MANIFEST:-$here/passing.txt}}
skip_code=77

fail() {
  echo "conformance FAILED: $*"
  exit 1
}

dir=${BOUGH_CONFORMANCE_DIR:-}
if [ -z "$dir" ]; then
  for d in "$root/../shared/conformance/onnx-node" /usr/share/libonnx-testdata/data/node; do
    if [ -d "$d" ]; then dir=$d; break; fi
  done
fi
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
  if [ "${BOUGH_SKIP_CONFORMANCE:-}" = 1 ]; then
    echo "conformance SKIPPED (BOUGH_SKIP_CONFORMANCE=1): no conformance data found; nothing was checked"
    exit $skip_code
  fi
  fail "no conformance data found (${dir:-set BOUGH_CONFORMANCE_DIR}); BOUGH_SKIP_CONFORMANCE=1 skips the check"
fi
[ -f "$manifest" ] || fail "no manifest $manifest"
listed=$(grep -c . "$manifest" || true)
[ "$listed" -gt 0 ] || fail "the manifest $manifest lists no tests"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
set +e
"$cli" test-data "$dir" > "$out"
status=$?
set -e
summary=$(tail -n 1 "$out")
echo "$summary"
# 0: all passed, 1: some failed. Anything else, or no summary line, is a broken run.
if [ "$status" -gt 1 ] || ! [[ $summary =~ ^[0-9]+\ passed,\ [0-9]+\ failed,\ [0-9]+\ skipped$ ]]; then
  fail "bough test-data did not finish (exit status $status)"
fi

regressed=0 absent=0
while read -r name; do
  [ -z "$name" ] && continue
  if [ ! -d "$dir/$name" ]; then
    echo "MISSING: $name: listed in the manifest, but $dir has no such test"
    absent=$((absent + 1))
  # A random model's line goes on with how it was checked: "PASS name (checked by ...)".
  elif ! grep -qE "^PASS $name( \(.*\))?$" "$out"; then
    echo "REGRESSION: $name: $(grep -m1 -E "^(FAIL|SKIP) $name(:|$)" "$out" || echo 'no result')"
    regressed=$((regressed + 1))
  fi
done < "$manifest"
new=$(grep '^PASS ' "$out" | cut -d' ' -f2 | sort | comm -23 - <(sort "$manifest") | wc -l)
echo "manifest: $listed listed, $regressed regressed, $absent missing from the suite, $new passing but not listed"
[ "$regressed" -eq 0 ] || fail "$regressed listed tests did not pass"
if [ "$absent" -gt 0 ]; then
  [ "${BOUGH_ALLOW_MISSING_CONFORMANCE:-}" = 1 ] ||
    fail "$absent listed tests are missing from the suite; BOUGH_ALLOW_MISSING_CONFORMANCE=1 allows an older suite"
  echo "conformance: $absent listed tests not checked (BOUGH_ALLOW_MISSING_CONFORMANCE=1)"
fi
