// What a repair round shows the model: failure excerpts and the failed attempts, newest round first (the rounds end to end: test/e2e/engine/repairRounds.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateResult } from '../../src/core/contract/fixRequest';
import { failedAttempts, failureExcerpt } from '../../src/core/engine/repairRounds';

describe('failureExcerpt and failedAttempts', () => {
  const verdict = { status: 'fail' as const, exitCode: 1, durationMs: 5, stdout: '', stderr: '' };
  const candidate = (over: Partial<CandidateResult>): CandidateResult => ({
    index: 0, replacement: 'x', verdict: { ...verdict, output: '' }, duplicateOf: null, runs: [{ ...verdict, output: '' }],
    verified: false, flaky: false, diff: '-a\n+x', changeSize: 2, changedCharacters: 1, ...over,
  });

  it('gives the reason and the failing tests\' messages, never the free output', () => {
    const output = '> t@1 test\n> node --test\n\n\u001b[31m✖ adds (1ms)\u001b[39m\n  AssertionError: 3 !== 4\n    at node:internal/x:1:1\n  at add (/w/add.js:2:3)\nprinted-by-the-candidate\n';
    const run = { ...verdict, output, reason: 'still failing: adds', failures: [{ id: 'adds', message: 'AssertionError: 3 !== 4\n\n3 !== 4\n' }] };
    assert.deepEqual(failureExcerpt(candidate({ verdict: run, runs: [run] })), ['still failing: adds', '✗ adds', '  AssertionError: 3 !== 4', '  3 !== 4']);
    const plain = { ...verdict, output: 'got 5\n' };
    assert.deepEqual(failureExcerpt(candidate({ verdict: plain, runs: [plain] })), ['the tests failed (exit 1)']);
  });

  it('drops message lines with a long base64/hex run (an encoded secret in an actual value)', () => {
    const encoded = Buffer.from('user:Pa55word-for-prod').toString('base64');
    const run = { ...verdict, output: encoded, failures: [{ id: 'adds', message: `Expected values to be strictly equal:\n'${encoded}' !== 10` }] };
    const lines = failureExcerpt(candidate({ verdict: run, runs: [run] }));
    assert.ok(!lines.join('\n').includes(encoded), lines.join('\n'));
    assert.deepEqual(lines, ['the tests failed (exit 1)', '✗ adds', '  Expected values to be strictly equal:', '[a line with a long base64/hex run left out]']);
  });

  it('takes a flaky candidate\'s failing run and caps the lines', () => {
    const pass = { ...verdict, status: 'pass' as const, exitCode: 0, output: 'ok' };
    const failures = Array.from({ length: 20 }, (_, i) => ({ id: `t${i}`, message: `error ${i} ${'y'.repeat(300)}` }));
    const fail = { ...verdict, output: '', failures };
    const lines = failureExcerpt(candidate({ verdict: pass, runs: [pass, fail], flaky: true }));
    assert.equal(lines.length, 6);
    assert.equal(lines[0], 'flaky: passed 1 of 2 runs');
    assert.ok(lines.every((l) => l.length <= 201));
  });

  it('passes on distinct failed candidates with code, newest round first', () => {
    const all = [
      candidate({ index: 0, round: 1, replacement: 'a' }),
      candidate({ index: 1, round: 1, replacement: '', diff: '' }),
      candidate({ index: 2, round: 2, replacement: 'b' }),
      candidate({ index: 3, round: 2, replacement: 'a', duplicateOf: 0 }),
      candidate({ index: 4, round: 2, replacement: 'c', verified: true }),
      candidate({ index: 5, replacement: 'mutant' }),
    ];
    assert.deepEqual(failedAttempts(all, new Set([0, 1, 2, 3, 4])).map((a) => a.replacement), ['b', 'a']);
  });
});
