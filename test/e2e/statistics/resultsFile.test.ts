// Results files: the panel's Export and `fix --results` write one format, appends wait for the lock, stats reads both.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixResult } from '../../../src/core/contract/fixRequest';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { formatResults, parseResults, recordsOf, sampleRecords, stableTaskId } from '../../../src/core/statistics/resultsFile';
import { loadSession } from '../../../src/host/model/sessionSchema';
import { taskRecord } from '../../../src/host/model/taskRecord';
import { runCli } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const dir = makeWorkspace({});
after(() => remove(tempRoot, dir));

/** A real request: 'good' passes, the others fail with the check's message. */
async function realResult(): Promise<FixResult> {
  const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'v=$(cat value.txt); echo "expected good, got $v"; test "$v" = good\n' });
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
  try {
    return await runFix({
      workspace: ws, relativePath: 'value.txt', start: 0, end: 3, testCommand: 'sh check.sh', samples: 3, 
      testTimeoutMs: 300_000, totalTimeoutMs: 600_000, parallel: 2, baselineCheck: true, confirmRuns: 1, strengthCheck: 'off',
      isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 }, provider: createFileProvider(['bad', 'good', 'worse']),
    });
  } finally {
    remove(ws);
  }
}

describe('results files', () => {
  it('writes the same lines from the panel\'s saved task as from the CLI, and reads them back', async () => {
    const result = await realResult();
    const cli = formatResults([{ taskId: 'T', samples: sampleRecords(result) }]);
    const saved = taskRecord(result, 'file:///ws/value.txt', { startLine: 1, endLine: 1 }, Date.now());
    const panel = formatResults([{ taskId: 'T', samples: saved.samples ?? [] }]);
    assert.equal(panel, cli, 'the panel\'s Export and fix --results are one format');
    const lines = cli.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => Object.keys(l).slice(0, 5)), Array(3).fill(['task_id', 'completion', 'passed', 'result', 'verdict']));
    assert.deepEqual(lines.map((l) => [l.completion, l.passed, l.verdict]), [['bad', false, 'fail'], ['good', true, 'pass'], ['worse', false, 'fail']]);
    assert.equal(lines[1].result, 'passed');
    assert.match(lines[0].result, /^failed: /);
    assert.ok(lines.every((l) => Number.isInteger(l.duration_ms) && l.duration_ms >= 0));
    assert.deepEqual(parseResults(cli, 'x'), [{ taskId: 'T', outcomes: ['fail', 'pass', 'fail'], baselinePassed: false }]);
    // The saved session still loads with its samples, and a session saved without them exports its outcomes.
    assert.equal(loadSession([saved]).tasks.length, 1);
    assert.match(loadSession([{ ...saved, samples: saved.samples?.slice(1) }]).problem ?? '', /task 1 is malformed/);
    assert.equal(formatResults([{ taskId: 'old', samples: recordsOf(['timeout']) }]), '{"task_id":"old","passed":false,"result":"timed out","verdict":"timeout"}\n');
  });
});

describe('verified-fix fix --results', () => {
  const example = join(repoRoot, 'examples', 'discount');
  const demo = ['fix', '--workspace', example, '--file', 'src/pricing.js', '--lines', '5-5', '--candidates', join(example, 'candidates.json')];

  it('two parallel runs and another task append whole lines that stats counts per task', async () => {
    const results = join(dir, 'bot.jsonl');
    const ws = makeWorkspace({ 'a.txt': 'old\n', 'check.sh': 'test "$(cat a.txt)" = good\n' });
    const candidates = join(ws, 'c.json');
    writeFileSync(candidates, JSON.stringify(['bad', 'worse']));
    const other = ['fix', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', candidates, '--test', 'sh check.sh', '--k', '1'];
    const runs = await Promise.all([
      runCli([...demo, '--results', results], { env }),
      runCli([...demo, '--json', '--results', results], { env }),
      runCli([...other, '--results', results], { env }),
    ]);
    remove(ws);
    assert.deepEqual(runs.map((r) => r.exitCode), [0, 0, 1], runs.map((r) => r.stderr).join('\n'));
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(lines.length, 6 + 6 + 2, 'every sample is one whole line');
    const ids = [...new Set(lines.map((l) => l.task_id))];
    // One task per request, as the panel counts (README, "What a task is"); the same code shares the id's first part.
    assert.equal(ids.length, 3, 'each run is its own task');
    const code = stableTaskId('src/pricing.js', [5, 5], '  if (quantity > threshold) {');
    assert.equal(ids.filter((id) => id.startsWith(`${code}@`)).length, 2, ids.join(', '));

    const stats = await runCli(['stats', results, '--k', '1,5', '--json']);
    assert.equal(stats.exitCode, 0, stats.stderr);
    const json = JSON.parse(stats.stdout);
    assert.equal(json.tasks, 3);
    assert.equal(json.samples, 14);
    const byId = Object.fromEntries(json.perTask.map((t: { task_id: string; n: number; c: number }) => [t.task_id, [t.n, t.c]]));
    assert.deepEqual(Object.values(byId).sort(), [[6, 2], [6, 2], [2, 0]].sort());
    assert.ok(Math.abs(json.k['1'].passAtK - (2 / 6 + 2 / 6 + 0) / 3) < 1e-12);
  });

  it('still prints the fix when the results file cannot be written, and exits 2', async () => {
    const r = await runCli([...demo, '--json', '--results', join(dir, 'missing', 'r.jsonl')], { env });
    assert.equal(r.exitCode, 2);
    assert.equal(JSON.parse(r.stdout).verified.length, 1);
    assert.match(r.stderr, /cannot append results to .*r\.jsonl: its folder does not exist/);
  });
});
