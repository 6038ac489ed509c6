// The mutation generator's two phases: the parse and syntax checks made ahead (while the baseline runs), then the
// ranking by the hint lines. Ahead or not, the mutants are the same, in the same order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateMutants, prepareSelection } from '../../src/core/mutation/generator';
import type { PreparedSelection } from '../../src/core/mutation/generator';

const js = [
  'function pick(xs, n) {',
  '  if (n < 0 || xs.length === 0) return null;',
  '  for (let i = 0; i < n; i++) if (xs[i] > xs[n]) n = i;',
  '  return xs[Math.min(n, xs.length - 1)];',
  '}',
  '',
].join('\n');
const py = ['def pick(xs, n):', '    if n < 0 or not xs:', '        return None', '    return xs[min(n, len(xs) - 1)]', ''].join('\n');

const cases = [
  { languageId: 'javascript', fileText: js, hintLines: [3, 2] },
  { languageId: 'javascript', fileText: js, hintLines: [], limit: 7 },
  { languageId: 'python', fileText: py, hintLines: [4] },
];

describe('generateMutants with a selection prepared ahead', () => {
  for (const { languageId, fileText, hintLines, limit } of cases) {
    it(`${languageId}${limit ? ` (limit ${limit})` : ''}: the same mutants and counts as in one go`, async () => {
      const input = { languageId, fileText, start: 0, end: fileText.length, ...(limit ? { limit } : {}) };
      const once = await generateMutants({ ...input, hintLines });
      const ahead = await generateMutants({ ...input, hintLines }, prepareSelection(input));
      assert.ok(once.mutants.length > 5);
      assert.deepEqual(ahead.mutants, once.mutants);
      assert.deepEqual({ ...ahead.stats, durationMs: 0 }, { ...once.stats, durationMs: 0 });
    });
  }

  it('takes the checks made ahead rather than making them again, and frees the parse', async () => {
    const input = { languageId: 'javascript', fileText: js, start: 0, end: js.length };
    const real = await prepareSelection(input);
    assert.ok(real);
    // Every edit found ahead marked as breaking the syntax: a generator that checked again would keep most of them.
    let released = 0;
    const prepared: PreparedSelection = { ...real, parses: (edit) => !real.edits.includes(edit) && real.parses(edit), release: () => (released++, real.release()) };
    const { mutants, stats } = await generateMutants({ ...input, hintLines: [3] }, Promise.resolve(prepared));
    assert.ok(mutants.every((m) => m.family === 'pair'), mutants.map((m) => m.label).join('\n'));
    assert.ok(stats.unparsable > real.edits.length / 2, JSON.stringify(stats));
    assert.equal(released, 1);
  });

  it('prepares nothing for a language without a grammar', async () => {
    assert.equal(await prepareSelection({ languageId: 'plaintext', fileText: 'x', start: 0, end: 1 }), undefined);
    assert.equal((await generateMutants({ languageId: 'plaintext', fileText: 'x', start: 0, end: 1 }, prepareSelection({ languageId: 'plaintext', fileText: 'x', start: 0, end: 1 }))).stats.supported, false);
  });
});
