// `verified-fix stats` through the built CLI: output shapes and bad input (exit 2, file and line named).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';

const dir = mkdtempSync(join(tmpdir(), 'vf-stats-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const lines = (n: number, c: number, id = 'T/0') =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ task_id: id, passed: i < c })).join('\n') + '\n';

describe('verified-fix stats', () => {
  it('prints the json object with each k', async () => {
    const path = file('ok.jsonl', lines(10, 3) + lines(10, 0, 'T/1'));
    const r = await runCli(['stats', path, '--k', '1,5', '--json']);
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.tasks, 2);
    assert.equal(json.samples, 20);
    assert.ok(Math.abs(json.k['1'].passAtK - 0.15) < 1e-12);
    assert.ok(Math.abs(json.k['5'].passAtK - (1 - 21 / 252) / 2) < 1e-12);
    assert.deepEqual(Object.keys(json.k['5']).sort(), ['ci95', 'passAtK', 'passHatK', 'passHatKCi95', 'plugInPassAtK', 'tasksLeftOut', 'tasksUsed']);
    assert.equal(json.k['5'].ci95.length, 2);
  });

  it('prints a readable table by default on the bundled sample', async () => {
    const r = await runCli(['stats', join(repoRoot, 'examples', 'sample_results.jsonl'), '--k', '1,5,10']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /24 tasks, 212 samples/);
    assert.match(r.stdout, /pass\^k/);
    assert.match(r.stdout, /^\s+10\s/m);
  });

  const bad: Array<[string, () => string[], RegExp]> = [
    ['a missing file', () => ['stats', join(dir, 'missing.jsonl')], /missing\.jsonl: no such file/],
    ['a line that is not JSON', () => ['stats', file('bad.jsonl', lines(2, 1) + '{oops\n')], /bad\.jsonl:3: not valid JSON/],
    ['a line without task_id', () => ['stats', file('noid.jsonl', '{"passed": true}\n')], /noid\.jsonl:1: "task_id"/],
    ['a line without passed', () => ['stats', file('nopass.jsonl', lines(1, 1) + '{"task_id": "x"}\n')], /nopass\.jsonl:2: "passed"/],
    ['an empty file', () => ['stats', file('empty.jsonl', '\n\n')], /empty\.jsonl: no results/],
    ['--k 0', () => ['stats', file('k0.jsonl', lines(3, 1)), '--k', '0'], /--k: "0" is not a positive integer/],
    ['--k above every task', () => ['stats', file('kbig.jsonl', lines(3, 1)), '--k', '1,4'], /--k 4 exceeds every task's number of samples \(the most any task has is 3\)/],
    ['an unknown flag', () => ['stats', file('u.jsonl', lines(3, 1)), '--bogus'], /bogus/],
  ];
  for (const [name, args, message] of bad) {
    it(`rejects ${name} with exit 2 and no stack trace`, async () => {
      const r = await runCli(args());
      assert.equal(r.exitCode, 2);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.equal(r.stdout, '');
    });
  }
});
