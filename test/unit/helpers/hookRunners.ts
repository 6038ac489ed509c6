// For the e2e tests of TAP-producing runners (tape, node-tap, ava): one adapter run in a workspace, and the clamp fix request.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRunner } from '../../../src/core/testCommand/runner';
import type { RunnerName } from '../../../src/core/testResults/types';
import { runCli } from './cli';
import { makeTempRoot } from './workspace';

/** src/calc.js of the clamp projects: `x > hi` returns lo, the bug the fix requests select (lines 2-3). */
export const CLAMP_SOURCE = ['function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n');

const childEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
};

/** `npm test` of `ws` through the adapter it resolves to (which must be `name`), as the engine runs it; its folders go in `made`. */
export function runAdapter(ws: string, name: RunnerName, made: string[], only?: readonly string[], timeoutMs = 120_000) {
  const runner = resolveRunner(ws, 'npm test');
  assert.ok('adapter' in runner && runner.adapter.name === name, JSON.stringify(runner));
  const out = mkdtempSync(join(tmpdir(), `vf-${name}-`));
  made.push(out);
  for (const [file, text] of Object.entries(runner.adapter.outputFiles ?? {})) writeFileSync(join(out, file), text);
  const report = join(out, 'report');
  const command = runner.adapter.command(runner.base, report, only, out);
  assert.ok(command);
  const r = spawnSync('/bin/sh', ['-c', command], { cwd: ws, encoding: 'utf8', env: childEnv(), timeout: timeoutMs });
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, results: runner.adapter.parse(text, ws), text };
}

/** `verified-fix fix` on src/calc.js lines 2-3 with a wrong candidate, then the right one; the log is stdout and stderr. */
export async function clampFixRequest(ws: string, made: string[]) {
  const tempRoot = makeTempRoot();
  made.push(tempRoot);
  const candidates = join(tempRoot, 'c.json');
  writeFileSync(candidates, JSON.stringify(['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return lo;\n  if (x > hi) return hi;']));
  const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-3', '--provider', 'file', '--candidates', candidates];
  args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--timeout', '120', '--strength', 'off', '--verbose');
  const r = await runCli(args, { env: childEnv({ VERIFIED_FIX_TMPDIR: tempRoot }), timeoutMs: 300_000 });
  return { ...r, log: `${r.stdout}\n${r.stderr}` };
}
