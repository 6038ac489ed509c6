// `verified-fix fix --workspace DIR` without --file/--lines, through the built CLI: the localisation first, the fix in
// the function the failing test alone runs (tried before the helper it also runs), --test-name, and bad combinations.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { clampProject } from '../../unit/helpers/clampProject';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const ws = makeWorkspace(clampProject);
after(() => remove(tempRoot, ws));

const base = ['fix', '--workspace', ws, '--test', 'node --test test/', '--samples', '20', '--k', '1', '--strength', 'off'];

describe('fix without --file/--lines', { concurrency: 1 }, () => {
  it('--json names the functions tried with their scores; the fix is in clamp, tried first', async () => {
    const r = await runCli([...base, '--json'], { env, timeoutMs: 300_000 });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.file, 'src/range.js');
    assert.deepEqual(json.lines, [2, 11]);
    assert.ok(json.verified.length > 0);
    const [first, ...rest] = json.localisation.functions;
    assert.deepEqual([first.file, first.name, first.score, first.tried, first.verified], ['src/range.js', 'clamp', 1, true, true]);
    const helper = rest.find((f: { name: string }) => f.name === 'toInt');
    assert.ok(helper && helper.score < 1 && !helper.tried, JSON.stringify(json.localisation.functions));
    assert.deepEqual(json.localisation.failingTests, ['test/range.test.js > clamp keeps the upper bound']);
    assert.match(json.localisation.explanations[0], /^the failing test `clamp keeps the upper bound` runs src\/range\.js:clamp \(score 1\.0\), src\/util\.js:toInt \(0\.\d\)$/);
    assert.equal(json.samples, first.samples, 'the statistics are the task\'s: the function where the fix was found');
    // Each function tried carries its samples, as results-file lines without the task.
    assert.equal(first.results.length, first.samples);
    assert.ok(first.results.some((r: { passed: boolean; completion?: string }) => r.passed && /return high;/.test(r.completion ?? '')));
    // The localisation is on stderr before any candidate ran.
    assert.match(r.stderr, /verified-fix: 1 failing test \(`clamp keeps the upper bound`\); ranked by coverage of 1 failing and 4 passing tests/);
  });

  it('the human report starts with the localisation; --test-name picks the failing test', async () => {
    const r = await runCli([...base, '--test-name', 'upper bound'], { env, timeoutMs: 300_000 });
    assert.equal(r.exitCode, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], 'Where the failing tests point:');
    assert.match(r.stdout, /1\. src\/range\.js:clamp \(lines 2–11\), score 1\.00: tried: 1 of \d+ samples passed — the fix is here/);
    assert.match(r.stdout, /2\. src\/util\.js:toInt \(lines 1–3\), score 0\.\d+: not tried/);
    assert.match(r.stdout, /verified fix/);
  });

  it('exit 2 with a clear message: a test name that fails nowhere, --file without --lines, --test-name with --lines', async () => {
    const none = await runCli([...base, '--test-name', 'pad pads'], { env, timeoutMs: 120_000 });
    assert.equal(none.exitCode, 2);
    assert.match(none.stderr, /no failing test matches "pad pads"; it ran and did not fail: `pad pads` \(passed\)/);
    const half = await runCli([...base, '--file', 'src/range.js'], { env });
    assert.equal(half.exitCode, 2);
    assert.match(half.stderr, /--file and --lines go together: give both, or neither to start from the failing tests/);
    const both = await runCli([...base, '--file', 'src/range.js', '--lines', '8-8', '--test-name', 'x'], { env });
    assert.equal(both.exitCode, 2);
    assert.match(both.stderr, /--test-name picks the failing tests to start from when there is no --file\/--lines/);
  });
});
