// A candidate that hangs is stopped at a multiple of the baseline's time, not at the test timeout, and says so.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

describe('time limits from the baseline', () => {
  it("times a hanging candidate out after 5× the baseline's time, within a far longer test timeout", async () => {
    const ws = makeWorkspace({
      'package.json': JSON.stringify({ name: 'limits', private: true, scripts: { test: 'node --test' } }),
      'src/calc.js': ['function clamp(x, lo, hi) {', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n'),
      // A suite that takes over a second, so the limit is the multiple and not the floor.
      'test/clamp.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert/strict');",
        "const { clamp } = require('../src/calc');",
        "test('caps at hi', () => assert.equal(clamp(15, 0, 10), 10));",
        'test(\'takes a while\', () => new Promise((resolve) => setTimeout(resolve, 1500)));',
        '',
      ].join('\n'),
    });
    const tempRoot = makeTempRoot();
    const folder = makeWorkspace({ 'c.json': JSON.stringify(['  while (x > hi) {}']) });
    made.push(ws, tempRoot, folder);
    const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
    delete env.NODE_TEST_CONTEXT;
    const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-2', '--provider', 'file', '--candidates', join(folder, 'c.json')];
    args.push('--test', 'node --test', '--confirm-runs', '1', '--k', '1', '--timeout', '600', '--strength', 'off', '--json');
    const started = performance.now();
    const r = await runCli(args, { env, timeoutMs: 900_000 });
    const json = JSON.parse(r.stdout) as { baseline: { durationMs: number }; candidates: Array<{ status: string; reason?: string; durationMs: number }> };
    const [c] = json.candidates;
    assert.equal(c.status, 'timeout', r.stderr);
    // On a loaded machine the loop also waits for a CPU, which its limit does not count (the reason says how long).
    // One test file: a baseline that holds every slot still started one file at once, and its limit says nothing more.
    const match = /^timed out after ([\d.]+) s \(5× the baseline's ([\d.]+) s\)(, not counting [\d.]+ s spent waiting for a CPU)?$/.exec(c.reason ?? '');
    assert.ok(match, c.reason);
    assert.ok(Number(match[1]) < 600, 'the limit is below the test timeout');
    assert.equal(Number(match[2]), Number((json.baseline.durationMs / 1000).toFixed(1)));
    assert.ok(performance.now() - started < 600_000, 'the request did not wait out the test timeout');
  });
});
