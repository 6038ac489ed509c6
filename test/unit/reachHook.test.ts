// The reach hook in real node --test runs: each test file's process (and a worker) writes which functions it ran, in
// the shape reachFromCoverage reads, leaving node's own scripts, packages and the hook out.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { REACH_HOOK_FILE, REACH_HOOK_SOURCE, withReachHook } from '../../src/core/localisation/reachHook';
import { nodeAdapter } from '../../src/core/testResults/node';
import { reachFromCoverage } from '../../src/core/localisation/reachingTests';
import { readV8Reports } from '../../src/core/localisation/v8Coverage';
import type { PerTestPlan } from '../../src/core/verification/stagedVerification';

const run = promisify(execFile);
const lib = 'function clamp(x, lo, hi) {\n  if (x > hi) return lo;\n  return x;\n}\nfunction other() { return 1; }\nmodule.exports = { clamp, other };\n';
const scratch = mkdtempSync(join(tmpdir(), 'vf-reach-hook-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A project whose test files call clamp, call only other(), run clamp in a worker, and load a package. */
function project(): { dir: string; out: string } {
  const dir = mkdtempSync(join(scratch, 'p-'));
  const out = join(dir, '..', `${dir.split('/').pop()}-out`);
  mkdirSync(out);
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  mkdirSync(join(dir, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'pkg', 'index.js'), 'module.exports = function pkg() { return 2; };\n');
  writeFileSync(join(dir, 'src', 'lib.js'), lib);
  const head = "const test = require('node:test');\nconst assert = require('node:assert/strict');\n";
  writeFileSync(join(dir, 'test', 'clamp.test.js'), `${head}const { clamp } = require('../src/lib');\ntest('caps', () => assert.equal(clamp(5, 0, 10), 5));\n`);
  writeFileSync(join(dir, 'test', 'other.test.js'), `${head}const { other } = require('../src/lib');\nconst pkg = require('pkg');\ntest('other', () => assert.equal(other() + pkg(), 3));\n`);
  const worker = `const { Worker } = require('node:worker_threads');\ntest('in a worker', () => new Promise((done, fail) => { const w = new Worker(${JSON.stringify(`require(${JSON.stringify(join(dir, 'src', 'lib.js'))}).clamp(1, 0, 2);`)}, { eval: true }); w.on('exit', done); w.on('error', fail); }));\n`;
  writeFileSync(join(dir, 'test', 'worker.test.js'), `${head}${worker}`);
  writeFileSync(join(out, REACH_HOOK_FILE), REACH_HOOK_SOURCE);
  return { dir, out };
}

async function runWithHook(dir: string, out: string, files: readonly string[], extraEnv: Record<string, string> = {}): Promise<void> {
  const command = withReachHook({ command: () => `node --test ${files.join(' ')}` }).command('', out);
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  if (!extraEnv.NODE_V8_COVERAGE) delete env.NODE_V8_COVERAGE;
  await run('sh', ['-c', command], { cwd: dir, env });
}

const ranClamp = (report: unknown) => ((report as { result: Array<{ url: string; functions: Array<{ ranges: Array<{ startOffset: number; count: number }> }> }> }).result
  .filter((s) => s.url.endsWith('/src/lib.js'))
  .some((s) => s.functions.some((f) => f.ranges[0].startOffset === 0 && f.ranges[0].count > 0 && f !== s.functions[0])));

describe('reach hook', () => {
  it('each process writes the functions it ran; packages, node internals and the hook are left out', async () => {
    const { dir, out } = project();
    await runWithHook(dir, out, ['test/clamp.test.js', 'test/other.test.js']);
    const reports = await readV8Reports(out);
    assert.equal(reports.length, 2, readdirSync(out).join(', '));
    const urls = reports.flatMap((r) => (r as { result: Array<{ url: string }> }).result.map((s) => s.url));
    assert.ok(urls.some((u) => u.endsWith('/test/clamp.test.js')) && urls.some((u) => u.endsWith('/test/other.test.js')));
    assert.ok(!urls.some((u) => u.startsWith('node:') || u.includes('/node_modules/') || u.endsWith(REACH_HOOK_FILE)), urls.join('\n'));
    const byFile = (name: string) => reports.find((r) => JSON.stringify(r).includes(`/test/${name}`));
    assert.equal(ranClamp(byFile('clamp.test.js')), true);
    assert.equal(ranClamp(byFile('other.test.js')), false);
    // Read as the baseline reads it: only clamp.test.js reaches a change inside clamp's body.
    const plan = {
      adapter: nodeAdapter, base: 'node --test', failing: [], baselineRan: 2,
      baseline: [{ id: 'test/clamp.test.js > caps', outcome: 'passed' }, { id: 'test/other.test.js > other', outcome: 'passed' }],
    } as unknown as PerTestPlan;
    const start = lib.indexOf('  if');
    const reach = reachFromCoverage(reports, plan, 'src/lib.js', lib, start, start + 10);
    assert.deepEqual('ids' in reach ? reach.ids : reach, ['test/clamp.test.js > caps']);
  });

  it('a worker thread writes a report of its own, so a function run only there is not missed', async () => {
    const { dir, out } = project();
    await runWithHook(dir, out, ['test/worker.test.js']);
    const reports = await readV8Reports(out);
    assert.equal(reports.length, 2);
    assert.equal(reports.filter(ranClamp).length, 1);
    const plan = { adapter: nodeAdapter, base: 'node --test', failing: [], baselineRan: 1, baseline: [{ id: 'test/worker.test.js > in a worker', outcome: 'passed' }] } as unknown as PerTestPlan;
    const start = lib.indexOf('  if');
    const reach = reachFromCoverage(reports, plan, 'src/lib.js', lib, start, start + 10);
    assert.match('problem' in reach ? reach.problem : '', /loaded no test file/);
  });

  it('a process that already collects coverage (NODE_V8_COVERAGE) is left alone', async () => {
    const { dir, out } = project();
    const own = join(dir, '..', `${dir.split('/').pop()}-own`);
    mkdirSync(own);
    await runWithHook(dir, out, ['test/clamp.test.js'], { NODE_V8_COVERAGE: own });
    assert.deepEqual(readdirSync(out).filter((n) => n.startsWith('coverage-')), []);
    // Its own coverage keeps V8's block counts (binary function coverage would have cut them).
    const theirs = readdirSync(own).map((n) => JSON.parse(readFileSync(join(own, n), 'utf8')) as { result: Array<{ url: string; functions: Array<{ isBlockCoverage: boolean }> }> });
    assert.ok(theirs.some((r) => r.result.some((s) => s.url.endsWith('/src/lib.js') && s.functions.some((f) => f.isBlockCoverage))));
  });
});
