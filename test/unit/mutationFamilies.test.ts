// The condition, statement and call families of the mutation generator, on JavaScript and Python: each expected
// mutant appears (so each test fails without its family), and what must not be generated is not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertHasMutant, assertLacksMutant, lines, mutateWhole } from './helpers/mutants';

describe('condition family', () => {
  const js = lines(
    'function trim(lines, limit) {',
    '  let end = lines.length;',
    "  while (lines[end - 1].trim() === '') end--;",
    '  if (end > limit && limit > 0) return limit;',
    '  return end;',
    '}',
  );
  const py = lines(
    'def leading(text, stop):',
    '    i = 0',
    '    while text[i].isdigit():',
    '        i += 1',
    '    if i > stop and stop >= 0:',
    '        return stop',
    '    return i',
  );

  it('drops a conjunct', async () => {
    await assertHasMutant('javascript', js, 'end > limit && limit > 0', 'end > limit');
    await assertHasMutant('javascript', js, 'end > limit && limit > 0', 'limit > 0');
    await assertHasMutant('python', py, 'i > stop and stop >= 0', 'i > stop');
  });

  it("adds a conjunct or disjunct built from the function's own comparisons", async () => {
    const jsGuard = lines('function f(xs, n) {', '  if (n > 0) return 1;', '  if (xs.length === 0) return 2;', '  return 3;', '}');
    await assertHasMutant('javascript', jsGuard, 'if (xs.length === 0)', 'if (xs.length === 0 && n > 0)');
    await assertHasMutant('javascript', jsGuard, 'if (xs.length === 0)', 'if (xs.length === 0 || n > 0)');
    await assertHasMutant('python', py, 'while text[i].isdigit():', 'while text[i].isdigit() and i > stop:');
  });

  it('adds a bounds check before an index the condition reads', async () => {
    await assertHasMutant('javascript', js, "while (lines[end - 1].trim() === '')", "while (end - 1 >= 0 && lines[end - 1].trim() === '')");
    await assertHasMutant('python', py, 'while text[i].isdigit():', 'while i < len(text) and text[i].isdigit():');
  });

  it('swaps the branches of an if/else and of a conditional expression', async () => {
    const jsIf = lines('function cmp(x, y) {', '  if (x < y) {', '    return 1;', '  } else {', '    return -1;', '  }', '}');
    await assertHasMutant('javascript', jsIf, '{\n    return 1;\n  } else {\n    return -1;\n  }', '{\n    return -1;\n  } else {\n    return 1;\n  }');
    await assertHasMutant('javascript', 'const sign = (x, y) => (x < y ? 1 : -1);\n', 'x < y ? 1 : -1', 'x < y ? -1 : 1');
    const pyIf = lines('def pick(a, b):', '    if a:', '        x = b', '    else:', '        x = a', '    return x if a else b');
    await assertHasMutant('python', pyIf, '        x = b\n    else:\n        x = a', '        x = a\n    else:\n        x = b');
    await assertHasMutant('python', pyIf, 'x if a else b', 'b if a else x');
  });
});

describe('statement family', () => {
  const js = lines(
    'function firstMatch(rows, status) {',
    '  let found = -1;',
    '  for (let i = 0; i < rows.length; i++) {',
    '    if (rows[i] !== status) continue;',
    '    found = i;',
    '  }',
    '  return found;',
    '}',
  );
  const py = lines(
    'def total(xs, limit):',
    '    out = 0',
    '    for x in xs:',
    '        if x is None:',
    '            continue',
    '        out += x',
    '        log(out)',
    '        return out',
    '    return out',
  );

  it('deletes a statement of a block with more than one', async () => {
    await assertHasMutant('javascript', js, '    found = i;\n', '');
    await assertHasMutant('python', py, '        log(out)\n', '');
  });

  it("never deletes a variable's first assignment, which declares it, nor moves it after a use", async () => {
    const pyDecl = lines('def f(xs, n):', '    out = []', '    n = n * 2', '    out.append(n)', '    return out');
    await assertLacksMutant('python', pyDecl, '    out = []\n', '');
    await assertHasMutant('python', pyDecl, '    n = n * 2\n', ''); // a parameter assigned again is no declaration
    await assertHasMutant('python', pyDecl, '    n = n * 2\n    out.append(n)', '    out.append(n)\n    n = n * 2');
    const pyUse = lines('def f(n):', '    total = n', '    total += 1', '    return total');
    await assertLacksMutant('python', pyUse, '    total = n\n    total += 1', '    total += 1\n    total = n');
  });

  it('moves a statement across its neighbour, and out of the loop it ends', async () => {
    await assertHasMutant('python', py, '        out += x\n        log(out)', '        log(out)\n        out += x');
    await assertHasMutant('python', py, '        log(out)\n        return out\n    return out', '        log(out)\n    return out\n    return out');
    const jsInto = lines('function f(xs) {', '  let n = 0;', '  for (const x of xs) {', '    n += x;', '  }', '  n *= 2;', '  return n;', '}');
    await assertHasMutant('javascript', jsInto, '    n += x;\n  }\n  n *= 2;', '    n += x;\n    n *= 2;\n  }');
  });

  it('adds a break, continue or return where the grammar allows', async () => {
    await assertHasMutant('javascript', js, '    found = i;\n', '    found = i;\n    break;\n');
    const jsIf = lines('function f(xs, t) {', '  let at = -1;', '  for (let i = 0; i < xs.length; i++) if (xs[i] === t) at = i;', '  return at;', '}');
    await assertHasMutant('javascript', jsIf, 'if (xs[i] === t) at = i;', 'if (xs[i] === t) { at = i; break; }');
    const pyFind = lines('def find(rows, key):', '    hit = None', '    for r in rows:', '        if r.key == key:', '            hit = r', '    return hit');
    await assertHasMutant('python', pyFind, '            hit = r\n', '            hit = r\n            break\n');
    await assertHasMutant('python', pyFind, '            hit = r\n', '            hit = r\n            return hit\n');
    // A `continue` as the last thing a loop body does changes nothing, so it is not offered.
    await assertLacksMutant('python', pyFind, '            hit = r\n', '            hit = r\n            continue\n');
  });

  it('copies a neighbouring guard', async () => {
    const pyGuard = lines(
      'def clean(rows):',
      '    out = []',
      '    for r in rows:',
      '        if not r:',
      '            continue',
      '        out.append(r)',
      '    for r in rows:',
      '        out.append(r.strip())',
      '    return out',
    );
    await assertHasMutant('python', pyGuard, '    for r in rows:\n        out.append(r.strip())', '    for r in rows:\n        if not r:\n            continue\n        out.append(r.strip())');
    const jsGuard = lines('function f(a, b) {', '  if (a === null) return 0;', '  const x = a * 2;', '  return x + b;', '}');
    await assertHasMutant('javascript', jsGuard, '  return x + b;', '  if (a === null) return 0;\n  return x + b;');
  });

  it('adds the update a loop lacks: the item to the set it tests, the loop variable to the state it reads', async () => {
    const pySeen = lines('def unique(xs):', '    seen = set()', '    out = []', '    for x in xs:', '        if x in seen:', '            continue', '        out.append(x)', '    return out');
    await assertHasMutant('python', pySeen, '        out.append(x)\n', '        out.append(x)\n        seen.add(x)\n');
    const { labels } = await mutateWhole('python', pySeen);
    assert.ok(labels.includes('add `seen.add(x)` on line 7'), labels.join('\n'));
    const jsPrev = lines(
      'function streak(days) {',
      '  let best = 0;',
      '  let previous = null;',
      '  for (const day of days) {',
      '    if (previous !== null && day === previous + 1) best++;',
      '  }',
      '  return best;',
      '}',
    );
    await assertHasMutant('javascript', jsPrev, 'best++;\n', 'best++;\n    previous = day;\n');
  });
});

describe('call family', () => {
  it('replaces a method or function by a sibling of the same arity', async () => {
    const js = lines('function f(xs, x) {', '  xs.push(Math.floor(x / 2));', "  return xs.indexOf(x) > 0 && String(x).startsWith('a');", '}');
    await assertHasMutant('javascript', js, 'xs.push(', 'xs.unshift(');
    await assertHasMutant('javascript', js, 'Math.floor(', 'Math.ceil(');
    await assertHasMutant('javascript', js, 'Math.floor(', 'Math.round(');
    await assertHasMutant('javascript', js, 'xs.indexOf(x)', 'xs.lastIndexOf(x)');
    await assertHasMutant('javascript', js, '.startsWith(', '.endsWith(');
    const py = lines('def f(name, parts):', "    if name.startswith('_'):", '        return min(parts)', '    return name.upper() + str(len(parts))');
    await assertHasMutant('python', py, 'startswith', 'endswith');
    await assertHasMutant('python', py, 'min(parts)', 'max(parts)');
    await assertHasMutant('python', py, 'name.upper()', 'name.lower()');
  });

  it('rewrites Python calls whose sibling has another shape', async () => {
    const py = lines('def f(xs, q):', '    xs.append(q)', '    ordered = xs.sort()', '    return ordered');
    await assertHasMutant('python', py, 'xs.append(q)', 'xs.insert(0, q)');
    await assertHasMutant('python', py, 'xs.sort()', 'sorted(xs)');
  });

  it('drops an argument, and adds one another call of the same function passes', async () => {
    const js = lines('function walk(node, depth, seen) {', '  if (!node) return depth;', '  return walk(node.left, depth + 1, seen) + walk(node.right, depth + 1);', '}');
    await assertHasMutant('javascript', js, 'walk(node.right, depth + 1)', 'walk(node.right, depth + 1, seen)');
    await assertHasMutant('javascript', js, 'walk(node.left, depth + 1, seen)', 'walk(node.left, depth + 1)');
    const py = lines('def pick(xs, key):', '    best = sorted(xs, key=key)', '    rest = sorted(xs)', '    return best, rest');
    await assertHasMutant('python', py, 'rest = sorted(xs)', 'rest = sorted(xs, key=key)');
    await assertHasMutant('python', py, 'sorted(xs, key=key)', 'sorted(xs)');
  });

  it('adds no argument to a builtin of fixed arity', async () => {
    await assertLacksMutant('python', lines('def f(xs, n):', '    print(xs, n)', '    return len(xs)'), 'len(xs)', 'len(xs, n)');
  });
});

describe('what the statement and call families never generate', () => {
  it('adds no break or continue in a Python loop\'s else block, and moves none out of the last loop', async () => {
    const text = lines(
      'def first_even(xs):',
      '    for x in xs:',
      '        if x % 2 == 0:',
      '            found = x',
      '            break',
      '    else:',
      '        found = None',
      '        log(found)',
      '    return found',
    );
    const { files } = await mutateWhole('python', text);
    const elseBlock = (file: string) => file.slice(file.indexOf('    else:'), file.indexOf('    return'));
    assert.ok(files.length > 0);
    for (const file of files) assert.ok(!/\b(break|continue)\b/.test(elseBlock(file)), `a jump in the loop's else block:\n${file}`);
    // `break` moved out of the `if` stays in the loop; out of the loop it would not compile.
    for (const file of files) {
      const loop = file.slice(0, file.indexOf('    else:'));
      assert.ok(!/\n {4}break\b/.test(loop), `a break outside the loop:\n${file}`);
    }
  });

  it('adds a positional argument before `*args` and `**kw`, never after', async () => {
    const text = lines('def call(f, x, y, rest, opts):', '    g(x, y)', '    return f(x, *rest, **opts)');
    const { files } = await mutateWhole('python', text);
    const added = files.filter((f) => /return f\(x, y, \*rest, \*\*opts\)/.test(f));
    assert.equal(added.length, 1, 'y is added before the unpacked arguments');
    assert.ok(!files.some((f) => /\*\*opts, y\)|\*rest, y/.test(f)));
  });

  it('treats a typed parameter as declared by the call: its first assignment can be deleted', async () => {
    const text = lines('def clamp(x: int, hi: int) -> int:', '    x = min(x, hi)', '    return x');
    await assertHasMutant('python', text, '    x = min(x, hi)\n', '');
  });
});
