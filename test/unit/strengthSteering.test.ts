// Candidates that could steer the strength check: read their own source, change code outside the selected function's
// body, or fail once a comment is added; and the ranking never puts a larger change above a smaller one on strength.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { steeringReason } from '../../src/core/verification/strengthSteering';
import { CONTROL_FAILED, rankByStrength } from '../../src/core/verification/strengthCheck';
import { controlText, withControlComment } from '../../src/core/verification/controlText';
import { checkStrength } from '../../src/core/verification/strengthRuns';
import type { TestStrength } from '../../src/core/contract/strength';

const js = 'const x = 1;\nfunction answer(a) {\n  return a + 41;\n}\nmodule.exports = { answer };\n';
const jsStart = js.indexOf('  return');
const jsEnd = js.indexOf('\n', jsStart);
const inJs = (replacement: string) => steeringReason({ languageId: 'javascript', originalText: js, start: jsStart, end: jsEnd, replacement });
const py = 'import os\n\ndef answer(a):\n    return a + 41\n';
const pyStart = py.indexOf('    return');
const inPy = (replacement: string, start = pyStart, end = py.length - 1) => steeringReason({ languageId: 'python', originalText: py, start, end, replacement });

describe('steeringReason', () => {
  it('passes an ordinary fix inside the function', () => {
    assert.equal(inJs('  return a + 42;'), undefined);
    assert.equal(inJs('  if (a > 0) { return a + 42; }\n  return 0;'), undefined);
    assert.equal(inJs("  return a + '}'.length + 41; // }"), undefined, 'brackets in strings and comments do not count');
    assert.equal(inPy('    return a + 42'), undefined);
  });

  it('marks a candidate that reads its own source (JS and Python)', () => {
    assert.match(inJs("  return require('crypto').createHash('sha1').update(require('fs').readFileSync(__filename)).digest('hex') ? a + 41 : 0;") ?? '', /reads its own source.*__filename.*reading a file/);
    assert.match(inJs('  return import.meta.url ? a : 0;') ?? '', /import\.meta/);
    assert.match(inJs('  return new Error().stack.length > 0 ? a + 42 : 0;') ?? '', /stack trace/);
    assert.match(inPy('    return a + 42 if open(__file__).read() else 0') ?? '', /__file__, opening a file/);
    assert.match(inPy('    import inspect; return a + 42') ?? '', /inspect/);
    assert.match(inPy("    return a + 42 if hash(answer.__code__.co_code) else 0") ?? '', /inspect/, 'its own bytecode, which comments do not change');
  });

  it('marks a candidate that breaks out of the function or changes top-level code', () => {
    assert.match(inJs("  return a + 41;\n}\nrequire('assert').strictEqual = () => {};\nfunction unused() {") ?? '', /outside the selected function's body/);
    assert.match(inPy('    return a + 41\nimport assert\nos.environ["X"] = "1"') ?? '', /outside the selected block/);
    // The whole function selected: the body may change, its header and the code around it may not.
    const whole = js.indexOf('function');
    const wholeEnd = js.indexOf('}\n', whole) + 1;
    const sel = (replacement: string) => steeringReason({ languageId: 'javascript', originalText: js, start: whole, end: wholeEnd, replacement });
    assert.equal(sel('function answer(a) {\n  return a + 42;\n}'), undefined);
    assert.match(sel('function answer(a) {\n  return a + 42;\n}\nglobalThis.x = 1;') ?? '', /top-level code/);
    const pyWhole = py.indexOf('def');
    assert.equal(inPy('def answer(a):\n    return a + 42', pyWhole), undefined);
    assert.match(inPy('def answer(a):\n    return a + 42\nos.environ["X"] = "1"', pyWhole) ?? '', /top-level code/);
  });

  it('does not count what the selection already used', () => {
    const text = "function read() {\n  return require('fs').readFileSync(__filename, 'utf8').length + 1;\n}\n";
    const start = text.indexOf('  return');
    const end = text.indexOf('\n', start);
    assert.equal(steeringReason({ languageId: 'javascript', originalText: text, start, end, replacement: "  return require('fs').readFileSync(__filename, 'utf8').length;" }), undefined);
  });
});

describe('the control run and the ranking', () => {
  it('adds a comment line at the end, in the language\'s syntax', () => {
    assert.equal(withControlComment('a\n', 'javascript'), 'a\n// verified-fix strength check: control\n');
    assert.equal(withControlComment('a', 'python'), 'a\n# verified-fix strength check: control\n');
    assert.equal(withControlComment('a', 'html'), undefined);
  });

  it('adds a comment on every line of the change too, never in a string, a template or JSX text, and only where the file still parses', async () => {
    const mark = '/* verified-fix strength check: control */ ';
    const end = '// verified-fix strength check: control\n';
    const inside = async (text: string, changed: string, languageId = 'javascript') => {
      const start = text.indexOf(changed);
      return controlText(text, { start, end: start + changed.length }, languageId);
    };
    // A one-line function: the comment goes before its last token, inside the function's own text.
    const oneLine = 'function answer() { return 42; }\n';
    assert.equal(await inside(oneLine, 'function answer() { return 42; }'), `function answer() { return 42; ${mark}}\n${end}`);
    // Every line of the change gets one, so a hash of any one changed line sees it; a comment is not a place.
    const lines = 'function f(a) {\n  const b = a + 1;\n  return b; // done\n}\n';
    assert.equal(await inside(lines, '  const b = a + 1;\n  return b; // done'), `function f(a) {\n  const b = a + 1${mark};\n  return b${mark}; // done\n}\n${end}`);
    // The last token is a string's closing quote: the comment goes before the string, not into it.
    const quoted = "function greet() {\n  return 'a }' + \"b\";\n}\n";
    const control = (await inside(quoted, "  return 'a }' + \"b\";")) ?? '';
    assert.ok(control.includes(`'a }' + "b"${mark};`) || control.includes(`'a }' + ${mark}"b";`), control);
    assert.ok(control.includes("'a }'"), 'the string is left whole');
    // Inside a template literal or JSX text there is no place: the comment goes before the template, or only at the end.
    const template = 'const f = () => `x ${1 + 2} y`;\n';
    const inTemplate = (await inside(template, '`x ${1 + 2} y`')) ?? '';
    assert.ok(inTemplate.includes('`x ${1 + 2} y`'), inTemplate);
    assert.equal(await inside(template, 'x ${1 + 2} y'), `${template}${end}`);
    const jsx = 'const el = <p>hello world</p>;\n';
    assert.ok(((await inside(jsx, 'hello world', 'javascriptreact')) ?? '').includes('<p>hello world</p>'));
    // Python: at the end of the change's last line that does not end in a string or a line continuation.
    const py = 'def answer():\n    return 42\n';
    const pyMark = '  # verified-fix strength check: control';
    assert.equal(await inside(py, 'def answer():\n    return 42', 'python'), `def answer():${pyMark}\n    return 42${pyMark}\n# verified-fix strength check: control\n`);
    const doc = 'def f():\n    s = \"\"\"a\n    b\"\"\"\n    return s\n';
    const inDoc = (await inside(doc, '    s = \"\"\"a\n    b\"\"\"', 'python')) ?? '';
    assert.ok(inDoc.includes('s = \"\"\"a\n    b\"\"\"  # verified-fix'), inDoc);
    const continued = 'def f():\n    return 1 + \\\n        2\n';
    assert.equal(await inside(continued, '    return 1 + \\', 'python'), `${continued}# verified-fix strength check: control\n`);
  });

  it('marks a fix whose control run is caught and takes nothing from its variants (they run beside it); variants run with the comment too', async () => {
    const verdict = { status: 'pass' as const, durationMs: 10, exitCode: 0, output: '', stdout: '', stderr: '' };
    const candidate = { index: 0, replacement: '  return a + 42;', verdict, duplicateOf: null, runs: [verdict], verified: true, flaky: false, diff: '', changeSize: 1, changedCharacters: 1 };
    const texts: string[] = [];
    const run = async (controlOutcome: 'caught' | 'survived') => {
      const found: string[] = [];
      let strength: TestStrength | undefined;
      texts.length = 0;
      const verifier = { tryVariant: async (label: string, text: string) => (texts.push(text), label.endsWith('c') ? controlOutcome : 'caught') };
      await checkStrength({ level: 'quick', verifier, languageId: 'javascript', relativePath: 'a.js', originalText: js, start: jsStart, end: jsEnd, candidates: [candidate], ranking: [0] }, (_, s) => (strength = s), (_, why) => found.push(why));
      return { found, strength };
    };
    const forged = await run('caught');
    assert.deepEqual(forged.found, [CONTROL_FAILED]);
    assert.equal(forged.strength, undefined);
    // The control run starts first and the variants with it, to fill the slots; a caught control voids them.
    assert.ok(texts.length > 1 && /strength check: control \*\//.test(texts[0]), 'the control ran first');
    const honest = await run('survived');
    assert.deepEqual(honest.found, []);
    assert.ok(honest.strength && honest.strength.variants > 0);
    assert.ok(texts.every((t) => t.endsWith('// verified-fix strength check: control\n')), 'every variant carries the perturbation');
    assert.match(texts[0], /return a \+ 42\/\* verified-fix strength check: control \*\/ ;|return a \+ \/\* verified-fix/, 'the control has a comment inside the change');
  });

  it('never ranks a smaller change below a larger one on strength; review-required last', () => {
    const pinned: TestStrength = { variants: 10, caught: 10, survivors: [], weak: false };
    const weak: TestStrength = { variants: 10, caught: 5, survivors: Array.from({ length: 5 }, () => ({ replacement: 'x', diff: '', label: 'x' })), weak: true };
    const sizes = new Map([[1, { changeSize: 2, changedCharacters: 3 }], [2, { changeSize: 6, changedCharacters: 40 }], [3, { changeSize: 2, changedCharacters: 3 }]]);
    // 1 is small and weak, 2 large and pinned, 3 small and pinned.
    assert.deepEqual(rankByStrength([1, 3, 2], new Map([[1, weak], [2, pinned], [3, pinned]]), sizes), [3, 1, 2]);
    assert.deepEqual(rankByStrength([1, 3, 2], new Map([[1, weak], [2, pinned], [3, pinned]]), sizes, new Set([3])), [1, 2, 3]);
  });
});
