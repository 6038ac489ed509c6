// The mutation generator on Java and Go, which reuse the JavaScript families with their own node names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateMutants } from '../../src/core/mutation/generator';

async function mutants(languageId: string, fileText: string) {
  const { mutants, stats } = await generateMutants({ languageId, fileText, start: 0, end: fileText.length });
  return { mutants, stats, files: mutants.map((m) => m.text) };
}

function assertHas(files: readonly string[], expected: string): void {
  assert.ok(files.includes(expected), `missing mutant:\n${expected}`);
}

/** Families that delete, move or copy whole nodes, and pairs (the text between their sites stays): a string or a call may go with them, but is never edited inside. */
const wholeNode = new Set(['condition', 'statement', 'argument', 'branches', 'pair']);

/** Each span survives every mutant: a string may move with a swapped operand, but its text never changes. */
function assertUntouched(
  text: string,
  spans: readonly string[],
  edits: ReadonlyArray<{ edit: { start: number; end: number; text: string }; label: string; family: string }>,
): void {
  for (const m of edits.filter((e) => !wholeNode.has(e.family))) {
    const mutated = text.slice(0, m.edit.start) + m.edit.text + text.slice(m.edit.end);
    for (const span of spans) assert.ok(mutated.includes(span), `${m.label} changes ${span}`);
  }
}

describe('mutation generator: Java', () => {
  const java = [
    'class Stats {',
    '  static int sumAbove(int[] xs, int limit) {',
    '    int total = 0; // i < limit',
    '    for (int i = 0; i < xs.length; i++) {',
    '      if (xs[i] > limit && !skip(i)) total += Math.max(xs[i], limit);',
    '    }',
    '    String note = "a < b";',
    '    return total;',
    '  }',
    '}',
    '',
  ].join('\n');

  it('offers the operator, off-by-one, boolean, swap and variable families', async () => {
    const { files, stats } = await mutants('java', java);
    assertHas(files, java.replace('i < xs.length', 'i <= xs.length'));
    assertHas(files, java.replace('i < xs.length', 'i < xs.length - 1'));
    assertHas(files, java.replace('&& !skip', '|| !skip'));
    assertHas(files, java.replace('!skip(i)', 'skip(i)'));
    assertHas(files, java.replace('+= Math.max', '-= Math.max'));
    assertHas(files, java.replace('Math.max', 'Math.min'));
    assertHas(files, java.replace('Math.max(xs[i], limit)', 'Math.max(limit, xs[i])'));
    assertHas(files, java.replace('return total;', 'return limit;'));
    assertHas(files, java.replace('i++', 'i--'));
    assert.equal(stats.unparsable, 0);
  });

  it('leaves strings, comments, declarations and method names alone', async () => {
    const { mutants: all } = await mutants('java', java);
    assertUntouched(java, ['// i < limit', '"a < b"', 'int[] xs, int limit', 'int total', 'int i', 'String note', 'skip('], all);
  });
});

describe('mutation generator: Go', () => {
  const go = [
    'package stats',
    '',
    'func sumAbove(xs []int, limit int) int {',
    '\ttotal := 0 // i < limit',
    '\tfor i := 0; i < len(xs); i++ {',
    '\t\tif xs[i] > limit && !skip(i) {',
    '\t\t\ttotal += max(xs[i], limit)',
    '\t\t}',
    '\t}',
    '\treturn total - len("a<b")',
    '}',
    '',
  ].join('\n');

  it('offers the operator, off-by-one, boolean, swap and variable families', async () => {
    const { files, stats } = await mutants('go', go);
    assertHas(files, go.replace('i < len(xs)', 'i <= len(xs)'));
    assertHas(files, go.replace('i < len(xs)', 'i < len(xs) - 1'));
    assertHas(files, go.replace('&& !skip', '|| !skip'));
    assertHas(files, go.replace('total += max', 'total -= max'));
    assertHas(files, go.replace('max(xs[i], limit)', 'min(xs[i], limit)'));
    assertHas(files, go.replace('max(xs[i], limit)', 'max(limit, xs[i])'));
    assertHas(files, go.replace('i++', 'i--'));
    assertHas(files, go.replace('xs[i] > limit', 'xs[i] > total'));
    assert.equal(stats.unparsable, 0);
  });

  it('leaves strings, comments and declarations alone', async () => {
    const { mutants: all } = await mutants('go', go);
    assertUntouched(go, ['// i < limit', '"a<b"', 'xs []int, limit int', 'total :=', 'i :='], all);
  });
});
