// The mutation order's prior (src/core/mutation/prior.ts): the lines' tiers, the bug classes' shares spread over a
// line's sites, same-kind variables first, and the bug corpus's fixes early with the lines ranked as localisation does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineRangeToOffsets } from '../../src/core/base/textRange';
import { generateMutants } from '../../src/core/mutation/generator';
import type { Mutant } from '../../src/core/mutation/generator';
import { lineBitsOf } from '../../src/core/mutation/prior';
import { BUG_CASES } from './helpers/bugCorpus';
import type { BugCase } from './helpers/bugCorpus';

/** The case's mutants (its function selected), and the place of the one that makes its fix. */
async function ranked(bug: BugCase, hintLines: number[]): Promise<{ mutants: readonly Mutant[]; place: number }> {
  const { start, end } = lineRangeToOffsets(bug.text, bug.lines[0], bug.lines[1]);
  const { mutants } = await generateMutants({ languageId: 'javascript', fileText: bug.text, start, end, hintLines });
  const fixed = bug.text.split('\n').map((l, i) => (i + 1 === bug.fixLine ? l.replace(bug.bug, bug.fix) : l)).join('\n');
  const place = mutants.findIndex((m) => bug.text.slice(0, start) + m.text + bug.text.slice(end) === fixed);
  return { mutants, place };
}

const bugCase = (name: string): BugCase => {
  const found = BUG_CASES.find((b) => b.name === name);
  assert.ok(found, name);
  return found;
};

describe('mutation prior', () => {
  it('reads the hints as tiers: a step down costs a bit, tied lines share their tier', () => {
    const bits = lineBitsOf([7, 6, 1, 2, 3]);
    assert.equal(bits(7), 0);
    assert.equal(bits(6), 1);
    assert.equal(bits(2), 2 + Math.log2(3));
    assert.ok(bits(9) > 100, 'a line no failing test ran comes after every line one ran');
    assert.equal(lineBitsOf([])(5), 0);
  });

  it('tries the wrong variable on the top line before the next line\'s operators (the clamp bug)', async () => {
    // The lines as per-test coverage ranks them (bench:prior measures them): `return low;` first, then `if (v > high)`.
    const { mutants, place } = await ranked(bugCase('clamp'), [7, 6, 1, 2, 3]);
    assert.ok(place >= 0 && place < 3, `return low → return high is at ${place}: ${mutants.slice(0, 5).map((m) => m.label).join('; ')}`);
  });

  it('interleaves the top lines: the second line\'s likeliest edit comes before the first line\'s unlikely ones', async () => {
    const { mutants } = await ranked(bugCase('grade'), [3, 1, 2]);
    const firstOn2 = mutants.findIndex((m) => m.line === 2);
    const lastOn3 = mutants.map((m) => m.line).lastIndexOf(3);
    assert.ok(firstOn2 >= 0 && firstOn2 < lastOn3, `${firstOn2} vs ${lastOn3}`);
    assert.ok(firstOn2 < 10, `line 2's first edit is at ${firstOn2}`);
  });

  it('puts a variable used as an object after same-kind variables (`xs.length` is not `sum.length`)', async () => {
    const { mutants } = await ranked(bugCase('mean'), [3, 4, 5, 1, 2]);
    const onLine5 = mutants.filter((m) => m.line === 5 && m.family === 'identifier');
    const xsForSum = onLine5.find((m) => m.label.startsWith('`sum` → `xs`'));
    const xForSum = onLine5.find((m) => m.label.startsWith('`sum` → `x`'));
    assert.ok(xsForSum && xForSum);
    assert.equal(xsForSum.edit.kindMismatch, true);
    assert.ok(mutants.indexOf(xForSum) < mutants.indexOf(xsForSum));
  });

  it('does not put off undoing a slip of kind: `best = values` → `value` where `values` is used both ways', async () => {
    const text = 'function maxOf(values) {\n  let best = values[0];\n  for (const value of values) {\n    if (value > best) best = values;\n  }\n  return best;\n}\n';
    const { start, end } = lineRangeToOffsets(text, 1, 7);
    const { mutants } = await generateMutants({ languageId: 'javascript', fileText: text, start, end, hintLines: [4, 1, 2, 3] });
    const undo = mutants.find((m) => m.line === 4 && m.label.startsWith('`values` → `value`'));
    const atIndex = mutants.find((m) => m.line === 2 && m.label.startsWith('`values` → `value`'));
    assert.ok(undo && atIndex);
    assert.equal(undo.edit.kindMismatch, undefined, 'a value site takes a value');
    assert.equal(atIndex.edit.kindMismatch, true, '`value[0]` uses a number as an object');
    assert.ok(mutants.indexOf(undo) < 10, `at ${mutants.indexOf(undo)}`);
  });

  it('finds most of the corpus\'s fixes within 10 samples, with the lines as localisation ranks them', async () => {
    // Hint lines as bench:prior's in-process coverage ranks them (none where coverage ties every line).
    const hints: Record<string, number[]> = {
      clamp: [7, 6, 1, 2, 3], grade: [3, 1, 2], indexOfMax: [4, 1, 2, 3, 6], adult: [3, 4, 1, 2], firstNew: [3, 1, 2], range: [],
      mean: [3, 4, 5, 1, 2], area: [3, 4, 5, 1, 2], atLeast: [3, 1, 2], lastN: [3, 4, 1, 2], ratio: [], countAbove: [4, 1, 2, 3, 6],
    };
    const places = await Promise.all(BUG_CASES.map(async (bug) => [bug.name, (await ranked(bug, hints[bug.name] ?? [])).place] as const));
    const within10 = places.filter(([, place]) => place >= 0 && place < 10);
    assert.ok(within10.length >= 8, places.map(([n, p]) => `${n} ${p}`).join(', '));
  });
});
