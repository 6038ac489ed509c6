// The order of the mutation generator's output with the newer families: an exact one-line selection still tries the
// classic one-token edits first, ranked hints are followed, pairs come after single edits, and the order is stable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateMutants } from '../../src/core/mutation/generator';
import type { Mutant } from '../../src/core/mutation/generator';
import { lines } from './helpers/mutants';


/** The mutants of lines first..last (1-based), as the engine selects them: the final line break excluded. */
async function mutantsOfLines(languageId: string, text: string, first: number, last: number, hintLines?: number[]): Promise<readonly Mutant[]> {
  const all = text.split('\n');
  const start = all.slice(0, first - 1).join('\n').length + (first > 1 ? 1 : 0);
  const end = all.slice(0, last).join('\n').length;
  return (await generateMutants({ languageId, fileText: text, start, end, hintLines })).mutants;
}

/** Position of the mutant that turns the selected lines' `bug` into `fix`. */
async function rankOf(languageId: string, text: string, line: number, bug: string, fix: string): Promise<number> {
  const selected = text.split('\n')[line - 1];
  assert.ok(selected.includes(bug), `line ${line} lacks ${bug}`);
  const mutants = await mutantsOfLines(languageId, text, line, line);
  return mutants.findIndex((m) => m.text === selected.replace(bug, fix));
}

const jsRange = lines(
  'function clampAll(values, lo, hi) {',
  '  const out = [];',
  '  for (let i = 0; i <= values.length; i++) out.push(Math.min(hi, Math.max(values[i], lo)));',
  '  return out.length > 0 && out.every((v) => v >= lo) ? out : null;',
  '}',
);
const pyMean = lines(
  'def weighted_mean(xs, ws):',
  '    total = sum(x * w for x, w in zip(xs, ws))',
  '    weight = sum(ws)',
  '    if weight < 0 or len(xs) != len(ws):',
  '        return None',
  '    return total * weight',
);

describe('mutation order', () => {
  it('keeps the classic one-token fix of an exact one-line selection among the first 10', async () => {
    const cases: Array<[string, string, number, string, string]> = [
      ['javascript', jsRange, 3, 'i <= values.length', 'i < values.length'],
      ['javascript', jsRange, 4, 'out.length > 0', 'out.length >= 0'],
      ['javascript', jsRange, 4, '&&', '||'],
      ['python', pyMean, 4, 'weight < 0', 'weight <= 0'],
      ['python', pyMean, 4, ' or ', ' and '],
      ['python', pyMean, 6, 'total * weight', 'total / weight'],
    ];
    for (const [languageId, text, line, bug, fix] of cases) {
      const rank = await rankOf(languageId, text, line, bug, fix);
      assert.ok(rank >= 0 && rank < 10, `${bug} → ${fix} on line ${line} is at ${rank}`);
    }
  });

  it('starts an exact line with its classic one-token edits, the likeliest alternative of each first', async () => {
    const mutants = await mutantsOfLines('javascript', jsRange, 3, 3);
    const classic = ['relational', 'arithmetic', 'logical', 'negation', 'boolean-literal', 'callee', 'integer-literal', 'off-by-one', 'sibling-call'];
    assert.ok(classic.includes(mutants[0].family), mutants[0].label);
    // `<=` → `<` (the boundary) before the same site's `<=` → `>=`.
    const at = (text: string) => mutants.findIndex((m) => m.label.startsWith(text));
    assert.ok(at('`<=` → `<`') < at('`<=` → `>=`'));
    assert.ok(at('`<=` → `<`') < mutants.findIndex((m) => m.family === 'swap'));
  });

  it('puts pairs after the first and second alternatives of single edits', async () => {
    const text = lines('def window(xs, a, b):', '    return [xs[i] for i in range(a, b) if lo < xs[i] < hi]');
    const mutants = await mutantsOfLines('python', text, 2, 2);
    const firstPair = mutants.findIndex((m) => m.family === 'pair');
    assert.ok(firstPair > 0, 'a pair is offered');
    const early = mutants.filter((m) => m.family !== 'pair' && m.edit.rank <= 1 && m.family !== 'identifier' && m.family !== 'statement');
    for (const m of early) assert.ok(mutants.indexOf(m) < firstPair, `${m.label} comes after the first pair`);
  });

  it('combines the likeliest sites two at a time, after their single edits', async () => {
    // Two one-token bugs on the lines the tests point at: neither single edit passes, only both together do.
    const text = lines(
      'function spread(xs) {',
      '  const first = xs[1];',
      '  const last = xs[xs.length];',
      '  return last - first;',
      '}',
    );
    const mutants = await mutantsOfLines('javascript', text, 1, 5, [2, 3]);
    const fixed = mutants.findIndex((m) => m.text.includes('xs[0];') && m.text.includes('xs[xs.length - 1];'));
    assert.ok(fixed >= 0, 'the two-edit fix is offered');
    assert.equal(mutants[fixed].family, 'pair');
    assert.match(mutants[fixed].label, /and/);
    const singlesOfHintedLines = mutants.filter((m) => (m.line === 2 || m.line === 3) && m.family !== 'pair' && m.edit.rank === 0);
    assert.ok(singlesOfHintedLines.every((m) => mutants.indexOf(m) < fixed), 'a combination comes before a single edit of its lines');
    assert.ok(fixed < 120, `the combination is at ${fixed} of ${mutants.length}`);
  });

  it('follows ranked hints: the likeliest line first, then the next', async () => {
    const mutants = await mutantsOfLines('python', pyMean, 1, 6, [6, 4]);
    const firstOn = (line: number) => mutants.findIndex((m) => m.line === line);
    assert.equal(mutants[0].line, 6);
    assert.ok(firstOn(6) < firstOn(4));
    // Lines no hint names come after every hinted line's edits.
    const firstOther = mutants.findIndex((m) => m.line !== 4 && m.line !== 6);
    assert.ok(firstOther > 0, 'unhinted lines have mutants too');
    assert.ok(mutants.slice(firstOther).every((m) => m.line !== 4 && m.line !== 6));
    // The second line's likeliest edits come before the first line's least likely ones.
    assert.ok(firstOn(4) < mutants.map((m) => m.line).lastIndexOf(6));
  });

  it('reads an ascending run of the ranking as tied lines, and a step down as less suspicious', async () => {
    const firstOf = (mutants: readonly Mutant[], line: number, family?: string) =>
      mutants.findIndex((m) => m.line === line && (family === undefined || m.family === family));
    // Localisation lists tied lines top to bottom: line 6's likeliest edit is not pushed behind line 4's swaps.
    const tied = await mutantsOfLines('python', pyMean, 1, 6, [4, 6]);
    assert.ok(firstOf(tied, 6) < firstOf(tied, 4, 'swap'));
    // Listed after a higher line, line 4 scored less: the top line's swaps come before its likeliest edit.
    const ranked = await mutantsOfLines('python', pyMean, 1, 6, [6, 4]);
    assert.ok(firstOf(ranked, 6, 'swap') < firstOf(ranked, 4));
  });

  it('gives the same order on every call', async () => {
    const a = await mutantsOfLines('python', pyMean, 1, 6, [4]);
    const b = await mutantsOfLines('python', pyMean, 1, 6, [4]);
    assert.deepEqual(b.map((m) => m.label), a.map((m) => m.label));
    assert.deepEqual(b.map((m) => m.text), a.map((m) => m.text));
  });

  it('labels every mutant with what changed and its line', async () => {
    const mutants = await mutantsOfLines('javascript', jsRange, 3, 3);
    const labels = mutants.map((m) => m.label);
    assert.ok(labels.includes('`push` → `unshift` on line 3'), labels.join('\n'));
    assert.ok(labels.every((l) => / on line \d+$/.test(l)));
  });
});
