// node-tap 16 and 21 (the @tapjs rewrite, 18 on): the raw TAP to the report with --output-file beside tap's own
// output, one result per test file, selection by file; and a whole fix request through the built CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolveRunner } from '../../../src/core/testCommand/runner';
import { verdicts } from '../../../src/core/testResults/compare';
import { runCli } from '../../unit/helpers/cli';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

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
      'src/calc.js': ['function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n'),
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

  function run(ws: string, only?: readonly string[]) {
    const runner = resolveRunner(ws, 'npm test');
    assert.ok('adapter' in runner && runner.adapter.name === 'tap', JSON.stringify(runner));
    const out = mkdtempSync(join(tmpdir(), 'vf-tap-'));
    made.push(out);
    const report = join(out, 'report');
    const command = runner.adapter.command(runner.base, report, only, out);
    assert.ok(command);
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const r = spawnSync('/bin/sh', ['-c', command], { cwd: ws, encoding: 'utf8', env, timeout: 300_000 });
    const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
    return { status: r.status, stdout: r.stdout, results: runner.adapter.parse(text, ws), text };
  }

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
      const ws = project();
      const tempRoot = makeTempRoot();
      made.push(tempRoot);
      const candidates = join(tempRoot, 'c.json');
      writeFileSync(candidates, JSON.stringify(['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return lo;\n  if (x > hi) return hi;']));
      const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
      delete env.NODE_TEST_CONTEXT;
      const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-3', '--provider', 'file', '--candidates', candidates];
      args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--timeout', '120', '--strength', 'off', '--verbose');
      const r = await runCli(args, { env, timeoutMs: 300_000 });
      const log = `${r.stdout}\n${r.stderr}`;
      assert.equal(r.exitCode, 0, log);
      assert.match(log, /per-test results \(tap\): 1 of 2 tests fail on the unmodified code: test\/a-clamp\.test\.js/);
      assert.match(log, /still failing: test\/a-clamp\.test\.js/);
      assert.match(r.stdout, /fixes 1 failing test · 1 others? still pass/);
    });
  });
}
