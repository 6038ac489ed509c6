#!/usr/bin/env bash
# Installs the test runners the e2e tests run for real but the project does not depend on (several mocha majors,
# tape 4 and 5, node-tap, vitest 1 and 2, ava, the c8 coverage tool, jest 26 and 30; jest 29 and vitest 3 are the project's own devDependencies) into a cache folder, one folder per
# release; a release already there costs nothing. Never fails the build: the tests that need a missing runner skip
# and say so.
set -uo pipefail

cache="${VERIFIED_FIX_CACHE:-$HOME/.cache/verified-fix}/runners"
mkdir -p "$cache" || exit 0
# name@range → folder; keep in step with test/unit/helpers/runners.ts.
runners=(
  "mocha-1 mocha@1"
  "mocha-3 mocha@3"
  "mocha-5 mocha@5"
  "mocha-8 mocha@8"
  "mocha-9.0 mocha@9.0"
  "mocha-10 mocha@10"
  "mocha-11 mocha@11"
  "tape-4 tape@4"
  "tape-5 tape@5"
  "tap-16 tap@16"
  "vitest-1 vitest@1"
  "vitest-2 vitest@2"
  "ava-6 ava@6"
  "c8-10 c8@10"
  "jest-26 jest@26"
  "jest-30 jest@30"
)
# tap 18+ (the @tapjs rewrite, 140 MB, minutes to install on a busy machine, a minute per run): only on request, so
# CI skips its e2e tests loudly; VF_EXTRA_RUNNERS=1 bash scripts/install-test-runners.sh adds it.
if [ -n "${VF_EXTRA_RUNNERS:-}" ]; then runners+=("tap-21 tap@21"); fi
for entry in "${runners[@]}"; do
  folder="${entry%% *}"
  spec="${entry#* }"
  bin="${spec%%@*}"
  dir="$cache/$folder"
  if [ -x "$dir/node_modules/.bin/$bin" ]; then continue; fi
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
  echo "installing $spec into $dir"
  if ! (cd "$dir" && npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --loglevel=error "$spec" >/dev/null); then
    echo "could not install $spec (the tests that need it will be skipped)" >&2
  fi
done
exit 0
