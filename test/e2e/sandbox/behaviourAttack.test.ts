// Attack: a verified fix that, only when the behaviour check replays it, overwrites every file of its replay's
// output folder (the recorded inputs, the harness, the results), appends to the recording, replaces the globals the
// harness would use (v8.serialize, JSON.stringify, Array.prototype.push, Object.assign) and forges its results on exit.
// It can only spoil its own replay: the other fixes' reports are what they are without it, it is said not to have been
// replayed (never "same behaviour"), and the user's files are untouched.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { candidatesFile, JS_CEIL as CEIL, jsPagesProject, JS_ROUND_UP as ROUND_UP } from '../../unit/helpers/behaviourFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));

// The behaviour suite's page-count project and fixes (test/unit/helpers/behaviourFixtures.ts).
// Line 2 closes the function and runs at the module's top level, only under the replay harness (so it passes the
// tests as Math.ceil does, and its attack is done before the harness calls anything); line 3's brace closes a spare.
const HOSTILE = [
  '  return Math.ceil(items / perPage); }',
  "if (/replay\\.cjs$/.test(process.argv[1] || '')) {",
  "const fs = require('fs'), path = require('path'), v8 = require('v8'), serialize = v8.serialize, dir = process.argv[2] || '.', results = path.join(dir, 'results.bin');",
  "for (const f of fs.readdirSync(dir)) { try { fs.writeFileSync(path.join(dir, f), 'tampered'); } catch {} }",
  "try { fs.appendFileSync(process.env.VERIFIED_FIX_RECORD || path.join(dir, 'calls.bin'), 'junk'); } catch {}",
  "v8.serialize = () => Buffer.from('forged'); JSON.stringify = () => 'forged'; Array.prototype.push = function () { return 0; }; Object.assign = () => ({});",
  // Spelled so the static check of test-run edits (which refuses `process.on('exit', …)`) does not stop it first.
  "const p = process, ev = 'ex' + 'it'; p.on(ev, () => { try { fs.writeFileSync(results, serialize({ outcomes: [] })); } catch {} }); }",
  'function spare() {',
].join(' ');

async function behaviour(ws: string, candidates: string[]) {
  const list = candidatesFile(ws, candidates, made, String(candidates.length));
  const r = await runCli(['fix', '--workspace', ws, '--file', 'src/pages.js', '--lines', '2-2', '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'quick', '--json'], { env });
  assert.equal(r.exitCode, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('attack: a verified fix that tampers with the behaviour check\'s recording and replay harness', () => {
  it('spoils only its own replay, is reported as not replayed, and changes nothing else', async () => {
    const ws = makeWorkspace(jsPagesProject(), { git: true });
    made.push(ws);
    const before = fingerprint(ws);
    const honest = await behaviour(ws, [CEIL, ROUND_UP]);
    const attacked = await behaviour(ws, [CEIL, ROUND_UP, HOSTILE]);
    assert.deepEqual(attacked.verified, [0, 1, 2], 'the hostile fix passes the tests like Math.ceil');
    const report = attacked.behaviour;
    assert.equal(report.status, 'compared', JSON.stringify(report));
    // The recorded inputs and the other fixes' outcomes are the same as without it. Recording runs count only the
    // time they could run, so a loaded machine does not cut them; a report whose recording was cut says so (reason).
    const reasons = JSON.stringify([report.reason, honest.behaviour.reason]);
    assert.equal(report.observed, honest.behaviour.observed, reasons);
    assert.equal(report.generated, honest.behaviour.generated, reasons);
    // The failing tests' inputs are recorded by a run of their own in each request; one that ran past even that limit
    // is dropped and said so, and then what each fix changes beyond the failing tests legitimately differs.
    const sameFailingInputs = report.failingTestInputs === honest.behaviour.failingTestInputs;
    if (!sameFailingInputs) assert.match(reasons, /the failing tests' recording run/);
    const outcomes = (fixes: Array<Record<string, unknown>>) => (sameFailingInputs ? fixes : fixes.map(({ index, tried, changed }) => ({ index, tried, changed })));
    assert.deepEqual(outcomes(report.fixes.slice(0, 2)), outcomes(honest.behaviour.fixes));
    assert.deepEqual(report.pairs, honest.behaviour.pairs);
    // Its forged results are caught by their shape: not replayed, in no group, never "the same as #1".
    const hostile = report.fixes[2];
    assert.equal(hostile.index, 2);
    assert.match(hostile.problem ?? '', /its replay results hold 0 outcomes for \d+ inputs|its replay results could not be read|its replay wrote no results/);
    assert.ok(!report.groups.flat().includes(2), JSON.stringify(report.groups));
    assert.deepEqual(report.groups, honest.behaviour.groups);
    assert.deepEqual(fingerprint(ws), before, 'the user\'s files are untouched');
  });
});
