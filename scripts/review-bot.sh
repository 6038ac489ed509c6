#!/usr/bin/env bash
# A review bot for any CI system: runs the tests, finds the source line a failing test's stack trace points at (or,
# when no frame names one, lets `verified-fix` rank the functions the failing tests run), asks `verified-fix fix
# --json` for candidates there and keeps only a verified one. See docs/ci.md.
#
# Usage: bash scripts/review-bot.sh [--base REF] [--head REF] [--test "CMD"]     (run in the repository's root)
# Env:   BASE                   the pull request's base: frames in files changed since BASE are preferred
#        HEAD_REF               the commit to check (default: the working tree as it is); a commit other than the
#                               checked-out one is exported with `git archive` to a temporary folder
#        TEST                   the test command (default: detected; `npm test` with a package.json, else pytest)
#        VERIFIED_FIX_CLI       how to run the CLI (default `verified-fix`; e.g. "node /path/to/dist/cli.js")
#        VERIFIED_FIX_PROVIDER  where candidates come from (default mutation; openai-compatible needs an endpoint)
#        VERIFIED_FIX_ENDPOINT, VERIFIED_FIX_MODEL   --endpoint / --model, when set
#        VERIFIED_FIX_SAMPLES   --samples, when set
#        VERIFIED_FIX_STRENGTH_BUDGET   --strength-budget, when set (0: the strength check runs to its end, so the
#                               review always says how firmly the tests pin the fix, at the cost of a longer job)
#        VERIFIED_FIX_RESULTS   a results file (JSON lines); passed as `fix --results`; `verified-fix stats` reads it
#        VERIFIED_FIX_OUT       folder for the two outputs (default .): verified-fix.diff, verified-fix-review.md
# Exit:  0 a verified fix was found (the outputs are written)
#        1 nothing to suggest: the tests pass ("no failing test"), the failing tests run no function of the
#          project, or no candidate was verified (the CLI's exit 1)
#        2 an error: not a git repository, no test command, the CLI failed
# The working tree is never modified: the tests run where they are (as CI would run them), and the CLI tests its
# candidates on copies.
set -euo pipefail

say() { printf 'review-bot: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

base="${BASE:-}"
head="${HEAD_REF:-}"
test_cmd="${TEST:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="${2:?--base needs a ref}"; shift 2 ;;
    --head) head="${2:?--head needs a ref}"; shift 2 ;;
    --test) test_cmd="${2:?--test needs a command}"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--base REF, --head REF, --test CMD)" ;;
  esac
done

read -r -a cli <<< "${VERIFIED_FIX_CLI:-verified-fix}"
provider="${VERIFIED_FIX_PROVIDER:-mutation}"
out="${VERIFIED_FIX_OUT:-.}"
command -v node >/dev/null || die "node is not installed (the CLI needs Node 20)"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || die "$(pwd) is not a git repository"
root="$(git rev-parse --show-toplevel)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# Outputs of an earlier run never stand for this one.
rm -f "$out/verified-fix.diff" "$out/verified-fix-review.md"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/review-bot.XXXXXX")"
# found/file/line are written once, here, as the script ends (whatever it ends with): a line the tests appended
# to GITHUB_OUTPUT earlier (its folder is guessable) is overridden, since the last value of a name wins.
found=false
file=""
line=""
finish() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    { echo "file=$file"; echo "line=$line"; echo "found=$found"; } >> "$GITHUB_OUTPUT" || true
  fi
  rm -rf "$tmp"
}
trap finish EXIT

# The workspace: the working tree, or the HEAD_REF commit exported beside it (dependencies linked, not copied).
ws="$root"
if [ -n "$head" ] && [ "$(git -C "$root" rev-parse "$head^{commit}")" != "$(git -C "$root" rev-parse HEAD)" ]; then
  ws="$tmp/ws"
  mkdir -p "$ws"
  git -C "$root" archive "$head" | tar -x -C "$ws"
  for dep in node_modules .venv venv; do
    if [ -d "$root/$dep" ] && [ ! -e "$ws/$dep" ]; then ln -s "$root/$dep" "$ws/$dep"; fi
  done
  say "checking $head in $ws"
fi
cd "$ws"

if [ -z "$test_cmd" ]; then
  if [ -f package.json ]; then test_cmd="npm test"
  elif [ -f pytest.ini ] || [ -f pyproject.toml ] || [ -f setup.cfg ] || [ -f tox.ini ]; then test_cmd="python3 -m pytest --tb=native"
  else die "no test command: set TEST (or --test \"CMD\")"
  fi
fi

# 1. The tests, as they are.
say "running: $test_cmd"
set +e
# The pull request's own code runs here: it must not reach the CI's step files (GITHUB_OUTPUT could say found=true,
# GITHUB_ENV could set BASH_ENV for the next step, which holds the token) nor the bot's output folder.
# It runs in a process group of its own, killed when it ends: a process it leaves behind cannot rewrite the
# outputs later (one that starts a session of its own can; docs/security.md).
group=()
if command -v setsid >/dev/null; then group=(setsid -w); fi
env -u GITHUB_OUTPUT -u GITHUB_ENV -u GITHUB_PATH -u GITHUB_STEP_SUMMARY -u GITHUB_STATE -u VERIFIED_FIX_OUT -u VERIFIED_FIX_RESULTS \
  "${group[@]}" sh -c "$test_cmd" > "$tmp/test-output.txt" 2>&1 &
tests_pid=$!
wait "$tests_pid"
test_exit=$?
kill -KILL -- "-$tests_pid" 2>/dev/null || true
set -e
if [ "$test_exit" -eq 0 ]; then
  say "no failing test: '$test_cmd' passes, nothing to fix"
  exit 1
fi

# 2. The first stack frame in one of the project's own source files (files changed since BASE first).
changed=""
if [ -n "$base" ]; then
  changed="$(git -C "$root" diff --name-only "$base" "${head:-HEAD}" -- 2>/dev/null || true)"
fi
frame="$(CHANGED="$changed" node -e '
const fs = require("fs"), path = require("path");
const root = fs.realpathSync(process.argv[1]);
const text = fs.readFileSync(process.argv[2], "utf8");
const isTest = (p) => /(^|\/)(test|tests|__tests__|spec|specs)\//.test(p) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) ||
  /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(p) || /(^|\/)conftest\.py$/.test(p);
const frames = [];
let pyBlock = null;
for (const line of text.split(/\r?\n/)) {
  if (/^\s*Traceback \(most recent call last\):/.test(line)) { pyBlock = []; continue; }
  const py = /^\s*File "([^"]+)", line (\d+)/.exec(line);
  if (py) { (pyBlock ?? frames).push({ file: py[1], line: Number(py[2]) }); continue; }
  if (pyBlock && !/^\s/.test(line)) { frames.push(...pyBlock.reverse()); pyBlock = null; }
  // "at fn (path:line:col)" (Jest, the node spec reporter) or "fn (path:line:col)" (the node TAP "stack: |-").
  const js = /^\s*(?:at\s+)?(?:[^()]*?\()?((?:file:\/\/)?[^\s()\x27\x22]+?):(\d+):(\d+)\)?\s*$/.exec(line);
  if (js) frames.push({ file: js[1], line: Number(js[2]) });
}
if (pyBlock) frames.push(...pyBlock.reverse());
const candidates = [];
for (const f of frames) {
  let p = f.file.replace(/^file:\/\//, "");
  if (/^node:|^internal[\/]|<anonymous>/.test(p) || /(^|\/)(node_modules|site-packages|dist-packages)\//.test(p)) continue;
  if (!path.isAbsolute(p)) p = path.join(root, p);
  let real;
  try { real = fs.realpathSync(p); } catch { continue; }
  const rel = path.relative(root, real);
  if (rel.startsWith("..") || path.isAbsolute(rel) || isTest(rel) || !fs.statSync(real).isFile()) continue;
  candidates.push(`${rel.split(path.sep).join("/")}:${f.line}`);
}
const changed = new Set((process.env.CHANGED || "").split("\n").filter(Boolean));
const pick = candidates.find((c) => changed.has(c.replace(/:\d+$/, ""))) ?? candidates[0];
if (pick) process.stdout.write(pick);
' "$ws" "$tmp/test-output.txt")"
# 3. The CLI: candidates for that line, or (no frame: an assertion on a returned value names only the test file)
#    for the functions the failing tests run, ranked by their coverage; verified by the same tests either way.
args=(fix --workspace . --json --provider "$provider" --test "$test_cmd")
if [ -n "$frame" ]; then
  file="${frame%:*}"
  line="${frame##*:}"
  say "a failing test's stack trace points at $file:$line"
  args+=(--file "$file" --lines "$line-$line")
  where="$file:$line"
else
  say "no stack frame points into a source file of the project (only tests, dependencies or runtime internals);"
  say "asking verified-fix which functions the failing tests run (their coverage); the last 20 lines of their output follow"
  tail -n 20 "$tmp/test-output.txt" >&2
  where="the functions the failing tests run"
fi
if [ -n "${VERIFIED_FIX_ENDPOINT:-}" ]; then args+=(--endpoint "$VERIFIED_FIX_ENDPOINT"); fi
if [ -n "${VERIFIED_FIX_MODEL:-}" ]; then args+=(--model "$VERIFIED_FIX_MODEL"); fi
if [ -n "${VERIFIED_FIX_SAMPLES:-}" ]; then args+=(--samples "$VERIFIED_FIX_SAMPLES"); fi
if [ -n "${VERIFIED_FIX_STRENGTH_BUDGET:-}" ]; then args+=(--strength-budget "$VERIFIED_FIX_STRENGTH_BUDGET"); fi
if [ -n "${VERIFIED_FIX_RESULTS:-}" ]; then args+=(--results "$VERIFIED_FIX_RESULTS"); fi
say "running: ${cli[*]} ${args[*]}"
set +e
"${cli[@]}" "${args[@]}" > "$tmp/fix.json"
fix_exit=$?
set -e
case "$fix_exit" in
  0) ;;
  1) say "no candidate was verified for $where"; exit 1 ;;
  *) die "verified-fix failed (exit $fix_exit); its message is above" ;;
esac

# 4. The best verified candidate: its diff, and a review body saying what was proven. Written to a private folder
# made only now (after the tests ran), then copied to the output folder by this script.
private="$(mktemp -d "${TMPDIR:-/tmp}/review-bot-out.XXXXXX")"
chmod 700 "$private"
node -e '
const fs = require("fs");
const [jsonFile, outDir, testCmd, provider] = process.argv.slice(1);
const r = JSON.parse(fs.readFileSync(jsonFile, "utf8"));
// The range the candidates replaced: the line of the frame, or the function localisation found the fix in.
const file = r.file, [first, last] = r.lines;
// The file goes to GITHUB_OUTPUT as one line: a name with a control character (a newline would add an output) is refused.
if (typeof file !== "string" || /[\u0000-\u001f\u007f]/.test(file) || !Number.isInteger(first) || !Number.isInteger(last)) { console.error("review-bot: the fix is in a file whose name has a control character; not suggesting it"); process.exit(2); }
const span = first === last ? `line ${first}` : `lines ${first}–${last}`;
const loc = r.localisation;
const tried = loc ? loc.functions.filter((f) => f.tried) : [];
const verified = (r.verified ?? []).map((i) => r.candidates[i]).filter(Boolean);
const best = verified[0] ?? r.candidates.find((c) => c.verified);
if (!best) { console.error("review-bot: the CLI exited 0 but lists no verified candidate"); process.exit(2); }
fs.writeFileSync(`${outDir}/verified-fix.diff`, best.diff);
const fixed = best.tests?.fixed ?? [];
const others = verified.filter((c) => c !== best);
const runs = best.runs ?? [];
const pct = (x) => (x === undefined ? "?" : `${(100 * x).toFixed(1)}%`);
const fence = "`".repeat(Math.max(3, ...[...best.diff.matchAll(/`+/g)].map((m) => m[0].length + 1)));
// Names the pull request chose (test names, the file) go into the body: newlines and control characters become
// spaces, a name with a long base64/hex run (an encoded secret) is not quoted, and each sits in a code span whose
// fence is longer than any backtick run in it (as the diff fence is), so it cannot end the span, start a block,
// open an HTML comment or add a suggestion. In HTML (the marker comment) it is HTML-escaped.
const encoded = (t) => /[0-9a-fA-F]{24,}/.test(t) || [...t.matchAll(/[A-Za-z0-9+/_=-]{16,}/g)].some(([run]) =>
  (/[A-Za-z0-9]=$/.test(run) && /[0-9A-Z]/.test(run) && run.replace(/[/=]/g, "").length >= 16) ||
  run.split("/").some((p) => p.length >= 16 && /[0-9]/.test(p) && /[a-z]/.test(p) && /[A-Z]/.test(p)));
const flat = (t) => { const f = String(t).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").replace(/\s+/g, " ").trim(); return f.length > 120 ? f.slice(0, 120) + "…" : f; };
const name = (t) => { const f = flat(t); if (encoded(f)) return "(a name with a long base64/hex run)"; const tick = "`".repeat(Math.max(1, ...[...f.matchAll(/`+/g)].map((m) => m[0].length + 1))); const pad = /^`|`$/.test(f) ? " " : ""; return tick + pad + f + pad + tick; };
const html = (t) => flat(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
// The behaviour check: where the verified candidates disagree, and what the best one changes beyond the failing
// tests, each only with an input simple enough to quote (one short line, no backtick or control character, no
// long base64/hex run).
const simple = (e) => e && [e.call, e.first, e.second].every((t) => typeof t === "string" && t.length <= 100 && !/[`\u0000-\u001f]/.test(t) && !encoded(t));
const b = r.behaviour?.status === "compared" ? r.behaviour : undefined;
const behaviourLines = [];
if (b) {
  const tried = b.observed + b.generated;
  const pair = b.pairs.find((p) => (p.first === best.index || p.second === best.index) && simple(p.examples[0]));
  if (pair) {
    const e = pair.examples[0];
    behaviourLines.push(`- behaviour: #${pair.first + 1} and #${pair.second + 1} differ on \`${e.call}\`: #${pair.first + 1} → \`${e.first}\`, #${pair.second + 1} → \`${e.second}\` (${b.groups.length} behaviours among ${b.groups.flat().length} verified candidates, ${tried} inputs tried)`);
  } else if (b.groups.length === 1 && b.groups[0].length > 1) {
    behaviourLines.push(`- behaviour: the ${b.groups[0].length} verified candidates agree on every one of ${tried} inputs tried`);
  }
  const mine = b.fixes.find((f) => f.index === best.index && !f.problem);
  if (mine && b.failingTestInputs > 0) {
    const e = mine.examples[0];
    behaviourLines.push(mine.changedBeyondFailingTests === 0
      ? `- besides the failing tests, it changes no result on the ${mine.tried} inputs tried`
      : `- besides the failing tests, it changes the result on ${mine.changedBeyondFailingTests} of ${mine.tried} inputs tried${simple(e) ? `, e.g. \`${e.call}\`: before \`${e.first}\`, after \`${e.second}\`` : ""}`);
  }
}
const body = [
  `<!-- verified-fix: file=${html(file)} lines=${first}-${last} -->`,
  `**Verified fix** for ${name(file)} ${span}, found by \`verified-fix\` (provider ${name(provider)}).`,
  "",
  ...(loc ? [
    "Where it looked (no stack frame named a source line, so the coverage of the failing tests did):",
    // The explanations quote test names the pull request chose: one line each, no HTML, no encoded run.
    ...loc.explanations.map((e) => { const l = String(e).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").slice(0, 400); return encoded(l) ? "- (an explanation naming a test with a long base64/hex run)" : `- ${l.replace(/</g, "&lt;")}`; }),
    `- tried ${tried.map((f) => `${name(`${f.file}:${f.name}`)} (score ${f.score.toFixed(2)}${f.verified ? ", the fix" : ""})`).join(", ")}`,
    "",
  ] : []),
  fence + "suggestion",
  best.replacement,
  fence,
  "",
  "What was proven:",
  fixed.length ? `- it fixes ${fixed.length === 1 ? "the failing test" : `${fixed.length} failing tests`}: ${fixed.slice(0, 10).map(name).join(", ")}${fixed.length > 10 ? ` and ${fixed.length - 10} more` : ""}` : "- the failing tests pass with it",
  `- ${name(testCmd)} passed ${runs.filter((x) => x === "pass").length} of ${runs.length} runs in a row (${runs.join(", ")}) in a sandboxed copy of the project`,
  best.tests ? `- tests: ${best.tests.passed} passing, ${best.tests.failed} failing${best.tests.broke?.length ? `; it breaks: ${best.tests.broke.slice(0, 10).map(name).join(", ")}` : ", none broken"}` : "",
  `- ${r.passed} of ${r.samples} candidates passed; pass@1 ${pct(r.passAtK?.["1"])}`,
  others.length ? `- ${others.length === 1 ? "another verified candidate is a different program" : `${others.length} other verified candidates are different programs`} the tests also accept (${others.map((c) => "#" + (c.index + 1)).join(", ")}): the tests do not decide between them, so compare before accepting` : "- it is the only verified candidate",
  best.reviewRequired ? `- **review required**: ${flat(best.reviewRequired)}; its strength was not checked` : "",
  best.strength ? (best.strength.weak ? `- strength: weak tests, ${best.strength.survivors.length} of ${best.strength.variants} variants of this fix also pass (the tests do not pin it)` : `- strength: the tests caught ${best.strength.caught} of ${best.strength.variants} variants of this fix`) : "- strength: not checked",
  ...behaviourLines,
  "",
  "<details><summary>The diff</summary>",
  "",
  fence + "diff",
  best.diff.replace(/\n$/, ""),
  fence,
  "",
  "</details>",
  "",
].filter((l, i, a) => l !== "" || a[i - 1] !== "").join("\n");
fs.writeFileSync(`${outDir}/verified-fix-review.md`, body);
process.stdout.write(`${file}\t${first}\n`);
' "$tmp/fix.json" "$private" "$test_cmd" "$provider" > "$tmp/where.txt" || { rm -rf "$private"; die "could not write the review"; }
IFS=$'\t' read -r file line < "$tmp/where.txt"

rm -f "$out/verified-fix.diff" "$out/verified-fix-review.md"
cp "$private/verified-fix.diff" "$private/verified-fix-review.md" "$out/"
rm -rf "$private"
found=true
say "a verified fix: $out/verified-fix.diff, $out/verified-fix-review.md"
exit 0
