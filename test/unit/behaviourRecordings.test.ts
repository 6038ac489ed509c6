// What the behaviour check makes of its two recording runs when one was cut short or failed: which recording it
// keeps, and the notes the log and the report's reason give. Table-driven, on real bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOT_RECORDED, checkLimits, notesReason, settleRecordings } from '../../src/core/behaviour/budgets';
import type { BehaviourCheck, RecordedRun } from '../../src/core/behaviour/budgets';

function checkWithLog(warnings: string[]): BehaviourCheck {
  const logger = { trace() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  return { testTimeoutMs: 60000, logger } as unknown as BehaviourCheck;
}

const bytes = (text: string) => Buffer.from(text);
const full = (text: string): RecordedRun => ({ bytes: bytes(text) });
const cut = (text: string): RecordedRun => ({ bytes: bytes(text), cut: 'timed out after 60.0 s' });

describe('settling the recordings', () => {
  const cases: Array<{ name: string; failing: RecordedRun | { problem: string }; all: RecordedRun | { problem: string }; kept: [string, string]; notes: RegExp[] }> = [
    { name: 'both whole', failing: full('f'), all: full('a'), kept: ['f', 'a'], notes: [] },
    { name: 'no failing-tests run asked for', failing: NOT_RECORDED, all: full('a'), kept: ['', 'a'], notes: [] },
    { name: 'the failing tests\' run cut: dropped', failing: cut('f'), all: full('a'), kept: ['', 'a'], notes: [/^the failing tests' recording run was cut short \(timed out after 60.0 s\), so which inputs are theirs is not known$/] },
    { name: 'the failing tests\' run failed', failing: { problem: 'the recording run failed: no sandbox' }, all: full('a'), kept: ['', 'a'], notes: [/^the failing tests' recording run failed: no sandbox, so which/] },
    { name: 'the whole suite\'s run cut: its part kept', failing: full('f'), all: cut('a'), kept: ['f', 'a'], notes: [/^the whole suite's recording run was cut short \(timed out after 60.0 s\): only the inputs it recorded until then are replayed$/] },
    { name: 'the whole suite\'s run failed', failing: full('f'), all: { problem: 'the recording run failed: no sandbox' }, kept: ['f', ''], notes: [/^the whole suite's recording run failed: no sandbox$/] },
    { name: 'both cut', failing: cut('f'), all: cut(''), kept: ['', ''], notes: [/failing tests'/, /whole suite's/] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const warnings: string[] = [];
      const settled = settleRecordings(checkWithLog(warnings), c.failing, c.all);
      assert.deepEqual([settled.failing.toString(), settled.all.toString()], c.kept);
      assert.equal(settled.notes.length, c.notes.length, settled.notes.join(' | '));
      c.notes.forEach((note, i) => assert.match(settled.notes[i], note));
      // Every note is in the log too: a partial recording is never silent.
      assert.deepEqual(warnings, settled.notes.map((n) => `behaviour check: ${n}`));
      assert.deepEqual(notesReason(settled.notes), c.notes.length > 0 ? { reason: settled.notes.join('; ') } : {});
    });
  }
});

describe('a check run\'s limits', () => {
  it('count only the time it could run, up to twice the test timeout of wall time', () => {
    assert.deepEqual(checkLimits(checkWithLog([]), 18000), { timeoutMs: 18000, waitingExtendsUpToMs: 120000 });
  });
});
