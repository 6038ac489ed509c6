#!/usr/bin/env bash
# Runs the unit tests once with the CPU saturated (4 busy loops), so a verdict that depends on the load fails CI.
# Usage: bash .ci/saturated-unit.sh [command …]   (default: npm run test:unit)
set -euo pipefail
cd "$(dirname "$0")/.."

busy=()
stop() {
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${busy[@]}" 2>/dev/null || true
}
trap stop EXIT INT TERM

for _ in 1 2 3 4; do
  sh -c 'while :; do :; done' &
  busy+=("$!")
done
echo "saturated: ${#busy[@]} busy loops on $(nproc) cores (pids ${busy[*]})"

started=$(date +%s)
status=0
if [ "$#" -gt 0 ]; then "$@" || status=$?; else npm run test:unit || status=$?; fi
echo "saturated: unit tests took $(( $(date +%s) - started )) s under load (exit $status)"
exit "$status"
