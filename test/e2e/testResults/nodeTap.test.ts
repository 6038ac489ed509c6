// node-tap 16 and 21 (the @tapjs rewrite, 18 on): the raw TAP to the report with --output-file beside tap's own
// output, one result per test file, selection by file; and a whole fix request through the built CLI.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { verdicts } from '../../../src/core/testResults/compare';
import { CLAMP_SOURCE, clampFixRequest, runAdapter } from '../../unit/helpers/hookRunners';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

/** The cached release, and its script: tap 18+ renamed --no-coverage (and fails a run short of 100 % coverage). */
const RELEASES = [
  { folder: 'tap-16', script: 'tap --no-coverage test/*.test.js', message: /^capped\nfound: 0\nwanted: 10/ },
  { folder: 'tap-21', script: 'tap --disable-coverage test/*.test.js', message: /^capped\ndiff: \|\n--- expected\n\+\+\+ actual\n@@ [^\n]*\n-10\n\+0$/ },
] as const;

for (const { folder, script, message } of RELEASES) {
  const modules = cachedRunner(folder, 'tap');
  const SCRIPT = script;

  function project(): string {
    const ws = makeWorkspace({
      'package.json': JSON.stringify({ name: 'tap-demo', private: true, scripts: { test: SCRIPT } }),
      'src/calc.js': CLAMP_SOURCE,
      'test/a-clamp.test.js': [
        "const t = require('tap');",
        "const { clamp } = require('../src/calc');",
        "t.test('inside', (t) => { t.equal(clamp(5, 0, 10), 5); t.end(); });",
        "t.test('caps at hi', (t) => { t.equal(clamp(15, 0, 10), 10, 'capped'); t.end(); });",
        '',
      ].join('\n'),
      'test/b-low.test.js': ["const t = require('tap');", "const { clamp } = require('../src/calc');", "t.test('raises to lo', (t) => { t.equal(clamp(-5, 0, 10), 0); t.end(); });", ''].join('\n'),
    });
    symlinkSync(modules as string, join(ws, 'node_modules'));
    made.push(ws);
    return ws;
  }

  const run = (ws: string, only?: readonly string[]) => runAdapter(ws, 'tap', made, only, 300_000);

  describe(`node-tap ${folder.slice(4)} through --output-file`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('reports each test file, the failing one with its assertion and diff', () => {
      const r = run(project());
      assert.equal(r.status, 1, r.stdout);
      assert.match(r.stdout, /^# Subtest: test\/a-clamp\.test\.js$/m, "tap's own output is unchanged");
      // tap 18+ runs the files in parallel, so they end in either order.
      assert.deepEqual([...verdicts(r.results)].sort(), [['test/a-clamp.test.js', 'failed'], ['test/b-low.test.js', 'passed']]);
      assert.match(r.results[0].message ?? '', message);
    });

    it('selects by file', () => {
      const r = run(project(), ['test/a-clamp.test.js']);
      assert.deepEqual([...verdicts(r.results)], [['test/a-clamp.test.js', 'failed']]);
    });

    it('a fix request runs the failing file first and verifies the right candidate', async () => {
      const { log, ...r } = await clampFixRequest(project(), made);
      assert.equal(r.exitCode, 0, log);
      assert.match(log, /per-test results \(tap\): 1 of 2 tests fail on the unmodified code: test\/a-clamp\.test\.js/);
      assert.match(log, /still failing: test\/a-clamp\.test\.js/);
      assert.match(r.stdout, /fixes 1 failing test · 1 others? still pass/);
    });
  });
}
