// The literal, gap and pair families of the mutation generator, on JavaScript and Python (and the cheap ones on
// Java and Go): each expected mutant appears, so each test fails without its family.
import { describe, it } from 'node:test';
import { assertHasMutant, assertLacksMutant, lines } from './helpers/mutants';

describe('literal family', () => {
  it('replaces a number or a string by another of the function', async () => {
    const js = lines('function fmt(t, unit) {', "  if (unit === 'h') return Math.floor(t / 60);", "  return unit === 'm' ? t % 60 : t * 1000;", '}');
    await assertHasMutant('javascript', js, "unit === 'h'", "unit === 'm'");
    await assertHasMutant('javascript', js, 't * 1000', 't * 60');
    const py = lines('def size(n, unit="KB"):', '    if unit == "MB":', '        return n / 1024', '    return n * 8')
    await assertHasMutant('python', py, 'unit == "MB"', 'unit == "KB"');
    await assertHasMutant('python', py, 'n * 8', 'n * 1024');
  });

  it('scales a unit by another literal of the function (60 → 3600)', async () => {
    const js = lines('function hms(t) {', '  const h = Math.floor(t / 60);', '  const m = Math.floor(t / 60) % 60;', '  return [h, m];', '}');
    await assertHasMutant('javascript', js, 'const h = Math.floor(t / 60)', 'const h = Math.floor(t / 3600)');
  });

  it('never treats a TypeScript type as a literal', async () => {
    await assertLacksMutant('typescript', 'export function f(n: number): number {\n  return n * 2;\n}\n', 'n: number', 'n: 2');
  });
});

describe('gap edits', () => {
  it('adds ±1 to a returned or assigned value, and drops a `+ 1` written first', async () => {
    const js = lines('function count(xs) {', '  let n = xs.length;', '  const last = 1 + n;', '  return n;', '}');
    await assertHasMutant('javascript', js, 'return n;', 'return n - 1;');
    await assertHasMutant('javascript', js, 'let n = xs.length', 'let n = xs.length + 1');
    await assertHasMutant('javascript', js, 'const last = 1 + n', 'const last = n');
    const py = lines('def count(xs):', '    n = len(xs) - 1', '    return n');
    await assertHasMutant('python', py, 'len(xs) - 1', 'len(xs)');
    await assertHasMutant('python', py, 'return n', 'return n + 1');
  });

  it('replaces a property by another used in the function, or declared in the file', async () => {
    const js = lines('function overlaps(p, q) {', '  return p.start < q.end && q.start < p.start;', '}');
    await assertHasMutant('javascript', js, 'q.start < p.start', 'q.start < p.end');
    const py = lines('class Slot:', '    start: int', '    end: int', '', 'def latest(slots):', '    return max(s.start for s in slots)');
    await assertHasMutant('python', py, 'max(s.start', 'max(s.end');
  });

  it('swaps the indices of a subscript', async () => {
    await assertHasMutant('javascript', 'function t(d, j, k) {\n  return d[j][k];\n}\n', 'd[j][k]', 'd[k][j]');
    await assertHasMutant('python', 'def t(d, j, k):\n    return d[j][k] + d[j, k]\n', 'd[j, k]', 'd[k, j]');
    await assertHasMutant('python', 'def t(d, j, k):\n    return d[j][k]\n', 'd[j][k]', 'd[k][j]');
  });

  it('swaps the operands of `+` on strings and lists only', async () => {
    const js = lines('function pad(value, fill) {', '  let s = String(value);', "  let p = '';", '  s = s + p;', '  return s.length + fill.length;', '}');
    await assertHasMutant('javascript', js, 's = s + p', 's = p + s');
    await assertLacksMutant('javascript', js, 's.length + fill.length', 'fill.length + s.length');
    const py = lines('def parent(path, sep):', '    return sep + path.rsplit(sep, 1)[0] + [1]');
    await assertHasMutant('python', py, 'sep + path.rsplit(sep, 1)[0] + [1]', '[1] + sep + path.rsplit(sep, 1)[0]');
  });

  it('offers the rarer arithmetic pairs (`-` → `%`)', async () => {
    await assertHasMutant('javascript', 'function wrap(i, n) {\n  return i - n;\n}\n', 'i - n', 'i % n');
    await assertHasMutant('python', 'def wrap(i, n):\n    return i - n\n', 'i - n', 'i % n');
  });
});

describe('pair family', () => {
  it('moves both bounds of a range or a slice', async () => {
    const py = lines('def window(xs, a, b):', '    total = 0', '    for i in range(a, b):', '        total += xs[i]', '    return total + sum(xs[a:b])');
    await assertHasMutant('python', py, 'range(a, b)', 'range(a + 1, b + 1)');
    await assertHasMutant('python', py, 'range(a, b)', 'range(a - 1, b - 1)');
    await assertHasMutant('python', py, 'xs[a:b]', 'xs[a + 1:b + 1]');
  });

  it("changes a C-style loop's start and its bound together", async () => {
    const js = lines('function sum(xs, n) {', '  let t = 0;', '  for (let i = 0; i < n; i++) t += xs[i];', '  return t;', '}');
    await assertHasMutant('javascript', js, 'let i = 0; i < n', 'let i = 1; i <= n');
    await assertHasMutant('javascript', js, 'let i = 0; i < n', 'let i = 1; i < n + 1');
  });

  it('changes both operators of a comparison chain, and one operator at two comparisons of one operand', async () => {
    await assertHasMutant('python', 'def inside(lo, x, hi):\n    return lo < x < hi\n', 'lo < x < hi', 'lo <= x <= hi');
    await assertHasMutant('javascript', 'function inside(lo, x, hi) {\n  return lo < x && x < hi;\n}\n', 'lo < x && x < hi', 'lo <= x && x <= hi');
    await assertHasMutant('python', 'def inside(lo, x, hi):\n    return lo < x and x < hi\n', 'lo < x and x < hi', 'lo <= x and x <= hi');
  });
});

describe('new families on Java and Go', () => {
  it('offers sibling calls, literals, dropped conjuncts and deleted statements', async () => {
    const java = lines(
      'class A {',
      '  static int f(int[] xs, int n) {',
      '    int t = (int) Math.floor(n / 60);',
      '    if (t > 0 && n > 1) t = t * 24;',
      '    t += 1;',
      '    return t;',
      '  }',
      '}',
    );
    await assertHasMutant('java', java, 'Math.floor', 'Math.ceil');
    await assertHasMutant('java', java, 't * 24', 't * 60');
    await assertHasMutant('java', java, 't > 0 && n > 1', 't > 0');
    await assertHasMutant('java', java, '    t += 1;\n', '');
    const go = lines('package p', '', 'func f(s string, n int) bool {', '\tn += 1', '\treturn strings.HasPrefix(s, "a") && n > 2', '}');
    await assertHasMutant('go', go, 'HasPrefix', 'HasSuffix');
    await assertHasMutant('go', go, ' && n > 2', '');
    await assertHasMutant('go', go, '\tn += 1\n', '');
  });
});
