// The mutation generator on JavaScript, TypeScript and Python snippets: families, exclusions, drops and order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateMutants } from '../../src/core/mutation/generator';
import type { MutationResult } from '../../src/core/mutation/generator';
import { parserFor } from '../../src/core/mutation/grammars';
import { countSyntaxErrors } from '../../src/core/mutation/parseCheck';

/** Mutates the whole text; returns the result and each mutant applied to the whole text. */
async function mutate(languageId: string, fileText: string, hintLines?: number[]): Promise<MutationResult & { files: string[] }> {
  const result = await generateMutants({ languageId, fileText, start: 0, end: fileText.length, hintLines });
  return { ...result, files: result.mutants.map((m) => m.text) };
}

function assertHas(files: readonly string[], expected: string): void {
  assert.ok(files.includes(expected), `missing mutant:\n${expected}\namong ${files.length}:\n${files.slice(0, 80).join('\n---\n')}`);
}

/** The tier of the classic families (0 operators, 1 swaps, 2 variables); `newer` for the families added since. */
function classicTier(family: string): { tier: number; newer: boolean } {
  const newer = !['relational', 'arithmetic', 'logical', 'negation', 'boolean-literal', 'callee', 'integer-literal', 'off-by-one', 'swap', 'identifier'].includes(family);
  return { tier: family === 'identifier' ? 2 : family === 'swap' ? 1 : 0, newer };
}

/**
 * Families that delete, move or copy whole nodes, and pairs of edits (which keep the text between their sites): they
 * may carry a string or comment along, never edit inside one.
 */
const wholeNode = new Set(['condition', 'statement', 'argument', 'branches', 'pair']);

const jsSum = [
  'function sumTo(xs, n) {',
  '  let total = 0;',
  '  for (let i = 0; i < n; i++) total += xs[i];',
  '  return clamp(total, n) && ready;',
  '}',
  '',
].join('\n');

describe('mutation generator: JavaScript', () => {
  it('offers relational, off-by-one, logical, argument-swap and variable mutants', async () => {
    const { files, stats } = await mutate('javascript', jsSum);
    assertHas(files, jsSum.replace('i < n', 'i <= n'));
    assertHas(files, jsSum.replace('xs[i]', 'xs[i + 1]'));
    assertHas(files, jsSum.replace('i < n', 'i < n - 1'));
    assertHas(files, jsSum.replace('let total = 0', 'let total = 1'));
    assertHas(files, jsSum.replace('&&', '||'));
    assertHas(files, jsSum.replace('clamp(total, n)', 'clamp(n, total)'));
    assertHas(files, jsSum.replace('+= xs[i]', '+= xs[n]'));
    assertHas(files, jsSum.replace('i++', 'i--'));
    assert.equal(stats.candidates, files.length);
    assert.equal(stats.generated, stats.candidates + stats.duplicates + stats.unparsable + stats.unchecked);
    assert.equal(stats.unchecked, 0);
  });

  it('stops checking at the limit and counts the rest as unchecked', async () => {
    const all = await mutate('javascript', jsSum);
    const limited = await generateMutants({ languageId: 'javascript', fileText: jsSum, start: 0, end: jsSum.length, limit: 5 });
    assert.deepEqual(limited.mutants.map((m) => m.text), all.files.slice(0, 5));
    const { stats } = limited;
    assert.equal(stats.candidates, 5);
    assert.ok(stats.unchecked > 0);
    assert.equal(stats.generated, stats.candidates + stats.duplicates + stats.unparsable + stats.unchecked);
  });

  it('labels an edit with the tokens and the line', async () => {
    const { mutants } = await mutate('javascript', jsSum);
    const labels = mutants.map((m) => m.label);
    assert.ok(labels.includes('`<` → `<=` on line 3'), labels.join('\n'));
    assert.ok(labels.includes('swap arguments `total` and `n` on line 4'), labels.join('\n'));
  });

  it('never replaces declarations, callees, properties or globals', async () => {
    const text = 'function f(a, b) {\n  const c = Math.max(a.size, b);\n  return g(c);\n}\n';
    const { mutants } = await mutate('javascript', text);
    for (const m of mutants.filter((m) => m.family === 'identifier')) {
      const replaced = text.slice(m.edit.start, m.edit.end);
      assert.ok(['a', 'b', 'c'].includes(replaced), m.label);
      assert.notEqual(m.edit.start, text.indexOf('c ='), m.label); // the declaration itself
    }
    const paramsAt = text.indexOf('(a, b)');
    assert.ok(mutants.every((m) => m.edit.start > paramsAt + 6 || m.edit.end <= paramsAt), 'parameters are left alone');
  });

  it('touches nothing inside strings, template text, regular expressions or comments', async () => {
    const text = [
      'function check(a, b) {',
      '  // a < b && b > 0 + 1',
      '  const msg = "a < b && 1 + 2";',
      '  const t = `x < ${a + 1} || 3`;',
      '  /* a >= b */ const re = /a+1|b<2/;',
      '  return a < b;',
      '}',
      '',
    ].join('\n');
    const protectedSpans = ['// a < b && b > 0 + 1', '"a < b && 1 + 2"', '`x < ', ' || 3`', '/* a >= b */', '/a+1|b<2/'].map((s) => {
      const at = text.indexOf(s);
      return [at, at + s.length] as const;
    });
    const { mutants } = await mutate('javascript', text);
    assert.ok(mutants.length > 0);
    for (const m of mutants) {
      for (const [from, to] of protectedSpans) {
        if (wholeNode.has(m.family)) assert.ok(!(m.edit.start > from && m.edit.start < to) && !(m.edit.end > from && m.edit.end < to), `${m.label} cuts into a string or comment`);
        else assert.ok(m.edit.end <= from || m.edit.start >= to, `${m.label} edits a string or comment`);
      }
    }
    // Code inside a template substitution is code, and is mutated.
    assertHas(mutants.map((m) => m.text), text.replace('${a + 1}', '${a - 1}'));
  });

  it('drops mutants that no longer parse and counts them', async () => {
    const text = 'function f(a, b) {\n  return a+-b;\n}\n';
    const { files, stats } = await mutate('javascript', text);
    assert.ok(stats.unparsable >= 1, JSON.stringify(stats));
    assert.ok(!files.some((f) => f.includes('a--b')), '`a--b` is a syntax error and must be dropped');
    assertHas(files, text.replace('a+-b', 'a*-b'));
  });

  it('gives the same order on every call', async () => {
    const first = await mutate('javascript', jsSum);
    const second = await mutate('javascript', jsSum);
    assert.deepEqual(second.mutants.map((m) => m.label), first.mutants.map((m) => m.label));
    assert.deepEqual(second.files, first.files);
  });

  it('keeps an operator table\'s alternatives in order at each site, and starts with a one-token edit', async () => {
    const { mutants } = await mutate('javascript', jsSum);
    // The prior (prior.ts) interleaves the families by their share of real bugs; within a site the table's order holds.
    const relational = mutants.filter((m) => m.family === 'relational');
    for (const site of new Set(relational.map((m) => m.edit.start))) {
      const ranks = relational.filter((m) => m.edit.start === site).map((m) => m.edit.rank);
      assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
    }
    assert.equal(classicTier(mutants[0].family).newer, false);
    assert.notEqual(mutants[0].family, 'identifier');
  });

  it('moves the mutants of a line the failure points at to the front', async () => {
    const plain = await mutate('javascript', jsSum);
    assert.notEqual(plain.mutants[0].line, 4);
    const hinted = await mutate('javascript', jsSum, [4]);
    const lines = hinted.mutants.map((m) => m.line);
    const firstOther = lines.findIndex((l) => l !== 4);
    assert.ok(firstOther > 0 && lines.slice(firstOther).every((l) => l !== 4), lines.join(','));
    // The same single edits, reordered (combinations of the likeliest sites follow the hints, so they differ).
    const singles = (r: MutationResult) => r.mutants.filter((m) => m.family !== 'pair').length;
    assert.equal(singles(hinted), singles(plain));
  });

  it('swaps neighbouring spreads and the two elements of a pair, never the elements of a longer plain literal', async () => {
    const text = 'function merge(a, b) {\n  const xs = [...a, ...b];\n  const o = { ...b, ...a, k: 1 };\n  return [[lo, hi], [1, 2, 3]];\n}\n';
    const { files, mutants } = await mutate('javascript', text);
    assertHas(files, text.replace('[...a, ...b]', '[...b, ...a]'));
    assertHas(files, text.replace('{ ...b, ...a,', '{ ...a, ...b,'));
    assertHas(files, text.replace('[lo, hi]', '[hi, lo]'));
    const swaps = mutants.filter((m) => m.family === 'swap' && m.label.startsWith('swap `'));
    assert.ok(!swaps.some((m) => m.text.includes('[2, 1, 3]') || m.text.includes('[1, 3, 2]')), swaps.map((m) => m.label).join('\n'));
  });

  it('only mutates inside the selection', async () => {
    const start = jsSum.indexOf('  for');
    const end = jsSum.indexOf('\n', start);
    const { mutants } = await generateMutants({ languageId: 'javascript', fileText: jsSum, start, end });
    assert.ok(mutants.length > 0);
    for (const m of mutants) assert.ok(m.edit.start >= start && m.edit.end <= end && m.line === 3, m.label);
    assert.ok(mutants.some((m) => m.text === '  for (let i = 0; i <= n; i++) total += xs[i];'));
  });
});

describe('mutation generator: TypeScript', () => {
  const ts = [
    'export function lastIndex(items: readonly number[], limit: number): number {',
    '  let found: number = -1;',
    '  for (let i = 0; i < items.length; i++) if (items[i] > limit) found = i;',
    '  return found;',
    '}',
    '',
  ].join('\n');

  it('mutates the code and leaves the types alone', async () => {
    const { files, mutants } = await mutate('typescript', ts);
    assertHas(files, ts.replace('items[i] > limit', 'items[i] >= limit'));
    assertHas(files, ts.replace('i < items.length', 'i <= items.length'));
    assertHas(files, ts.replace('found = i;', 'found = limit;'));
    for (const m of mutants) assert.ok(!/number\b/.test(ts.slice(m.edit.start, m.edit.end)), `${m.label} touches a type`);
  });

  it('parses TSX as TypeScript with JSX', async () => {
    const tsx = 'export const View = (p: { n: number }) => <div>{p.n < 3 ? "few" : "many"}</div>;\n';
    const { files } = await mutate('typescriptreact', tsx);
    assertHas(files, tsx.replace('p.n < 3', 'p.n <= 3'));
  });
});

describe('mutation generator: Python', () => {
  const py = [
    'def count_valid(xs, n, strict=True):',
    '    total = 0  # i < n and total > 0',
    '    for i in range(n):',
    '        if xs[i] > 0 and not strict:',
    '            total += 1',
    '    return max(total, n) if any(x is None for x in xs) else "a < b or c"',
    '',
  ].join('\n');

  it('offers the Python operator families', async () => {
    const { files } = await mutate('python', py);
    assertHas(files, py.replace('xs[i] > 0', 'xs[i] >= 0'));
    assertHas(files, py.replace('> 0 and', '> 0 or'));
    assertHas(files, py.replace('range(n)', 'range(n + 1)'));
    assertHas(files, py.replace('strict=True', 'strict=False'));
    assertHas(files, py.replace('not strict', 'strict'));
    assertHas(files, py.replace('any(', 'all('));
    assertHas(files, py.replace('max(', 'min('));
    assertHas(files, py.replace('x is None', 'x is not None'));
    assertHas(files, py.replace('max(total, n)', 'max(n, total)'));
    assertHas(files, py.replace('total += 1', 'total -= 1'));
    assertHas(files, py.replace('xs[i] > 0', 'xs[n] > 0'));
  });

  it('swaps neighbouring splats in a list or dict and the two elements of a tuple', async () => {
    const text = 'def merge(a, b):\n    return [*a, *b], {**b, **a}, (lo, hi)\n';
    const { files } = await mutate('python', text);
    assertHas(files, text.replace('[*a, *b]', '[*b, *a]'));
    assertHas(files, text.replace('{**b, **a}', '{**a, **b}'));
    assertHas(files, text.replace('(lo, hi)', '(hi, lo)'));
  });

  it('adds a negation to a condition', async () => {
    const { files } = await mutate('python', py);
    assertHas(files, py.replace('if xs[i] > 0 and not strict:', 'if not (xs[i] > 0 and not strict):'));
  });

  it('touches nothing inside strings or comments', async () => {
    const { mutants } = await mutate('python', py);
    const spans = ['# i < n and total > 0', '"a < b or c"'].map((s) => [py.indexOf(s), py.indexOf(s) + s.length] as const);
    for (const m of mutants) {
      for (const [from, to] of spans) {
        if (wholeNode.has(m.family)) assert.ok(!(m.edit.start > from && m.edit.start < to) && !(m.edit.end > from && m.edit.end < to), m.label);
        else assert.ok(m.edit.end <= from || m.edit.start >= to, m.label);
      }
    }
  });

  it('gives the same order on every call', async () => {
    const a = await mutate('python', py);
    const b = await mutate('python', py);
    assert.deepEqual(b.files, a.files);
  });
});

describe('mutation generator: limits', () => {
  it('reports an unsupported language instead of guessing', async () => {
    const { mutants, stats } = await mutate('cobol', 'ADD 1 TO X.');
    assert.equal(mutants.length, 0);
    assert.equal(stats.supported, false);
  });

  it('does not count more errors for a file that already had one', async () => {
    const text = 'function f(a) {\n  return a < 1;\n}\nconst = ;\n';
    const { files, stats } = await mutate('javascript', text);
    assertHas(files, text.replace('a < 1', 'a <= 1'));
    assert.equal(stats.unparsable, 0);
  });

  it('counts ERROR and MISSING nodes', async () => {
    const parser = await parserFor('javascript');
    for (const [source, expected] of [['f(a, b);', 0], ['f(a, b;', 1], ['a--b;', 1]] as const) {
      const tree = parser.parse(source);
      assert.ok(tree);
      assert.equal(countSyntaxErrors(tree.rootNode), expected, source);
      tree.delete();
    }
  });
});
