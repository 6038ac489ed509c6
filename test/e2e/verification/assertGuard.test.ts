// Assertion patches through names built at run time (#25 item 4), through the real CLI with node --test, mocha, jest
// 29, vitest 1 and 3, tape 5, ava 6 and pytest: no static check can read `assert['strict' + 'Equal']`. Node's runs
// lock node:assert's own functions before any test or code under test loads (and chai's `assert` once it loads);
// jest's and vitest's a setup file (or jest's serializer) locks their matchers, their test globals and node:assert;
// tape's hook its Test prototype; ava's hook `Object.is` and concordance in its workers; pytest's report plugin
// fails every test reported after unittest's assertions or pytest's report classes were replaced. A candidate that
// keeps the bug and patches them fails as the bug does.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
delete env.NODE_TEST_CONTEXT;
const made: string[] = [];
after(() => remove(tempRoot, ...made));

const BUGGY = 'function answer() { return 41; }';
const GOOD = 'function answer() { return 42; }';
/** The bug kept; the property name built at run time, in the ways a model or an attacker would write it. */
const PATCHES = [
  // Sloppy code: the assignment to a read-only property is silently dropped.
  `${BUGGY} const a = require('ass' + 'ert'); const n = 'strict' + 'Equal'; a[n] = function () {}; a.strict[n] = a[n];`,
  // Redefining it throws in the module itself.
  `${BUGGY} const a = require('ass' + 'ert'); Object.defineProperty(a, ['strict', 'Equal'].join(''), { value: function () {} });`,
  // Strict code: the assignment throws.
  `${BUGGY} (function () { 'use strict'; const a = require('ass' + 'ert'); a[String.fromCharCode(115) + 'trictEqual'] = function () {}; })();`,
];

/** Chai's `Assertion.prototype.assert`, which every `expect` assertion and the `assert` interface report through. */
const CHAI_PATCHES = [
  `${BUGGY} const c = require('ch' + 'ai'); c.Assertion.prototype['ass' + 'ert'] = function () {};`,
  `${BUGGY} const c = require('ch' + 'ai'); try { Object.defineProperty(c.Assertion.prototype, 'ass' + 'ert', { value() {} }); } catch (e) {}`,
];

const TEST = (header: string) => `${header}const assert = require('node:assert');\nconst { answer } = require('../src/answer');\ntest('answer', () => assert.strictEqual(answer(), 42));\n`;

function workspace(runner: 'node' | 'mocha', assertWith: 'node:assert' | 'chai' = 'node:assert'): string {
  // With chai, the test asserts through chai's `expect` and through its `assert` interface.
  const chaiTest = "const { expect, assert } = require('chai');\nconst { answer } = require('../src/answer');\nit('answer', () => { expect(answer()).to.equal(42); assert.strictEqual(answer(), 42); });\n";
  const ws = makeWorkspace({
    'package.json': JSON.stringify({ name: 'answer', private: true, scripts: { test: runner === 'node' ? 'node --test' : 'mocha test/answer.test.js' } }),
    'src/answer.js': `${BUGGY}\nmodule.exports = { answer };\n`,
    // Mocha's own `it` is the global there; node's comes from node:test.
    'test/answer.test.js': assertWith === 'chai' ? chaiTest : TEST(runner === 'node' ? "const test = require('node:test');\n" : 'const test = it;\n'),
    // A project's own helper on assert is not node's: it can still be added.
    'test/helper.test.js': `${runner === 'node' ? "const test = require('node:test');\n" : 'const test = it;\n'}const assert = require('node:assert');\nassert.closeTo = (a, b) => assert.ok(Math.abs(a - b) < 1e-9);\ntest('own helper', () => assert.closeTo(0.1 + 0.2, 0.3));\n`,
  }, { git: true });
  if (runner === 'mocha') symlinkSync(join(repoRoot, 'node_modules'), join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

/**
 * The globals a test file calls at run time (jest's, and vitest's with `globals: true`), replaced before the test file
 * calls them: an `expect` whose every matcher passes, a `test` that swallows the test's failure.
 */
const GLOBAL_PATCHES = [
  "globalThis['exp' + 'ect'] = () => new Proxy({}, { get: () => () => {} });",
  "const t = globalThis['te' + 'st']; globalThis['te' + 'st'] = (name, fn) => t(name, () => { try { fn(); } catch (e) {} });",
  "Object.defineProperty(globalThis, 'exp' + 'ect', { value: () => ({ toBe() {}, toEqual() {} }) });",
];

/**
 * Objects that claim to match anything: an `asymmetricMatch` method (named at run time), which jest's and vitest's
 * `toEqual` obey on the received side too, on a plain object and behind a Proxy.
 */
const CLAIMS = [
  "return { ['asymmetric' + 'Match']: () => true };",
  "return new Proxy({}, { get: (t, key) => (String(key) === 'asymmetric' + 'Match' ? () => true : undefined) });",
];

/** Jest's shared matchers, its equality testers and `Object.is`, each reached by a name built at run time. */
const JEST_PATCHES = [
  `${BUGGY} globalThis[Symbol.for('$$jest-matchers-' + 'object')].matchers['to' + 'Be'] = () => ({ pass: true, message: () => '' });`,
  `${BUGGY} globalThis['exp' + 'ect'].extend({ ['to' + 'Be']: () => ({ pass: true, message: () => '' }) });`,
  `${BUGGY} Object['i' + 's'] = () => true;`,
  ...GLOBAL_PATCHES.map((patch) => `${BUGGY} try { ${patch} } catch (e) {}`),
];

/**
 * A jest project; with `ownSetup`, its config names its own setup file (which the guard must not replace: it goes
 * in as a serializer there), which adds a matcher and a global the tests use.
 */
function jestWorkspace(ownSetup: boolean, assertWith: 'expect' | 'toEqual' | 'node:assert' = 'expect'): string {
  const extend = 'expect.extend({ toBeEven: (n) => ({ pass: n % 2 === 0, message: () => `${n} is odd` }) });\n';
  const ws = makeWorkspace({
    'package.json': JSON.stringify({ name: 'answer', private: true, scripts: { test: 'jest' }, ...(ownSetup ? { jest: { setupFilesAfterEnv: ['<rootDir>/test/setup.js'] } } : {}) }),
    'src/answer.js': `${BUGGY}\nmodule.exports = { answer };\n`,
    // Jest hands a test file the process's own node:assert, which the code under test can reach too.
    'test/answer.test.js': assertWith === 'node:assert' ? TEST('') : `const { answer } = require('../src/answer');\ntest('answer', () => expect(answer()).${assertWith === 'expect' ? 'toBe' : 'toEqual'}(42));\n`,
    // A project's own matcher is not jest's: expect.extend still adds it.
    ...(ownSetup
      ? { 'test/setup.js': `${extend}globalThis.half = (n) => n / 2;\n`, 'test/helper.test.js': "test('own matcher', () => expect(half(8)).toBeEven());\n" }
      : { 'test/helper.test.js': `${extend}test('own matcher', () => expect(4).toBeEven());\n` }),
  }, { git: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

const VITEST_BUGGY = 'export function answer() { return 41; }';
const VITEST_GOOD = 'export function answer() { return 42; }';
/**
 * Vitest's matchers on chai's `Assertion.prototype` (reached through the global `expect`), its `assert` that every
 * matcher reports through, `expect.extend` over a built-in, the shared equality testers and `Object.is`. ES modules
 * are strict, where writing a read-only property throws: each patch is tried and the module loads with the bug kept.
 */
const VITEST_PATCHES = [
  "const e = globalThis[Symbol.for('expect-' + 'global')]; Object.getPrototypeOf(e(0))['ass' + 'ert'] = function () {};",
  "globalThis[Symbol.for('expect-' + 'global')].extend({ ['to' + 'Be']: () => ({ pass: true, message: () => '' }) });",
  "const e = globalThis[Symbol.for('expect-' + 'global')]; Object.defineProperty(Object.getPrototypeOf(e(0)), 'to' + 'Be', { value() {} });",
  "globalThis[Symbol.for('$$jest-matchers-' + 'object')].customEqualityTesters.push(() => true);",
  "Object['i' + 's'] = () => true;",
];
/** node:assert's own functions, reached from an ES module through `createRequire`. */
const VITEST_NODE_ASSERT_PATCHES = [
  "const a = createRequire(import.meta.url)('ass' + 'ert'); a['strict' + 'Equal'] = () => {};",
  "const a = createRequire(import.meta.url)('ass' + 'ert'); Object.defineProperty(a, 'strict' + 'Equal', { value() {} });",
].map((patch) => `import { createRequire } from 'node:module'; ${VITEST_BUGGY} try { ${patch} } catch {}`);
/** Each patch tried in a module that keeps the bug. */
const vitestCandidates = (patches: readonly string[]) => patches.map((patch) => `${VITEST_BUGGY} try { ${patch} } catch {}`);

/**
 * A vitest project on `modules` (per-entry links without the caches: vitest writes into node_modules/.vite, vite 6
 * bundles the config into node_modules/.vite-temp, which through a link would be the repo's). Its own setup
 * file adds an equality tester and a matcher, which the guard (last of the setup files) leaves working.
 */
function vitestWorkspace(modules: string, globals: boolean, assertWith: 'expect' | 'toEqual' | 'node:assert' = 'expect', inlineProject = false): string {
  // An inline project that does not extend the root config gets none of the root's setup files: its own name them.
  const own = `globals: ${globals}, setupFiles: ['./test/setup.js']`;
  const config = inlineProject ? `export default { test: { projects: [{ test: { name: 'unit', include: ['test/**/*.test.js'], ${own} } }] } };\n` : `export default { test: { ${own} } };\n`;
  const answerTest = assertWith === 'node:assert'
    ? "import assert from 'node:assert';\nimport { test } from 'vitest';\nimport { answer } from '../src/answer.js';\ntest('answer', () => assert.strictEqual(answer(), 42));\n"
    : `${globals ? '' : "import { expect, test } from 'vitest';\n"}import { answer } from '../src/answer.js';\ntest('answer', () => expect(answer()).${assertWith === 'expect' ? 'toBe' : 'toEqual'}(42));\n`;
  const ws = makeWorkspace({
    'package.json': JSON.stringify({ name: 'answer', private: true, type: 'module', scripts: { test: 'vitest run' } }),
    'vitest.config.mjs': config,
    'test/setup.js': "import { expect } from 'vitest';\nexpect.addEqualityTesters([(a, b) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : undefined)]);\n" +
      'expect.extend({ toBeEven: (n) => ({ pass: n % 2 === 0, message: () => `${n} is odd` }) });\n',
    'src/answer.js': `${VITEST_BUGGY}\n`,
    // With globals, the test file calls the global `expect` and `test`, which the code under test, imported first,
    // could replace.
    'test/answer.test.js': answerTest,
    'test/helper.test.js': "import { expect, test } from 'vitest';\ntest('own matcher', () => expect(4).toBeEven());\ntest('own tester', () => expect(new Date(5)).toEqual(new Date(5)));\n",
  }, { git: true });
  mkdirSync(join(ws, 'node_modules'));
  for (const name of readdirSync(modules)) if (!name.startsWith('.vite')) symlinkSync(join(modules, name), join(ws, 'node_modules', name));
  made.push(ws);
  return ws;
}

/** Tape's Test prototype, reached through tape's index and through its lib/test.js: each turns the bug's failure into a pass. */
const TAPE_PATCHES = [
  `${BUGGY} const T = require('ta' + 'pe').Test; const o = T.prototype._assert; T.prototype['_ass' + 'ert'] = function (ok, opts) { return o.call(this, true, opts); };`,
  `${BUGGY} const T = require('ta' + 'pe/lib/te' + 'st'); T.prototype['equ' + 'al'] = function () { this.pass('equal'); };`,
];

/** A tape 5 project; its own assertion added to tape's Test prototype still works. */
function tapeWorkspace(modules: string): string {
  const ws = makeWorkspace({
    'package.json': JSON.stringify({ name: 'answer', private: true, scripts: { test: 'tape test/*.js' } }),
    'src/answer.js': `${BUGGY}\nmodule.exports = { answer };\n`,
    'test/answer.js': "const test = require('tape');\nconst { answer } = require('../src/answer');\ntest('answer', (t) => { t.equal(answer(), 42); t.end(); });\n",
    'test/helper.js': "const test = require('tape');\ntest.Test.prototype.isEven = function (n) { this.ok(n % 2 === 0, 'even'); };\ntest('own assertion', (t) => { t.isEven(4); t.end(); });\n",
  }, { git: true });
  symlinkSync(modules, join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

/** What ava's `t.is` and `t.deepEqual` compare with: `Object.is` and concordance's `compare`. */
const AVA_PATCHES = {
  is: [`${BUGGY} Object['i' + 's'] = () => true;`, `${BUGGY} try { Object.defineProperty(Object, 'i' + 's', { value: () => true }); } catch (e) {}`],
  deepEqual: [`${BUGGY} const c = require('concord' + 'ance'); c['comp' + 'are'] = () => ({ pass: true });`],
};

/** An ava 6 project whose test asserts with `assertion`. */
function avaWorkspace(modules: string, assertion: 'is' | 'deepEqual'): string {
  const check = assertion === 'is' ? 't.is(answer(), 42)' : 't.deepEqual([answer()], [42])';
  const ws = makeWorkspace({
    // No cache: ava 6.4 makes one in node_modules, here the shared runner folder, which a run cannot write; it passed
    // only where an unsandboxed ava run had made the folder first (the e2e files in order), and failed alone.
    'package.json': JSON.stringify({ name: 'answer', private: true, scripts: { test: 'ava' }, ava: { cache: false } }),
    'src/answer.js': `${BUGGY}\nmodule.exports = { answer };\n`,
    'test/answer.test.js': `const test = require('ava');\nconst { answer } = require('../src/answer');\ntest('answer', (t) => { ${check}; });\n`,
  }, { git: true });
  symlinkSync(modules, join(ws, 'node_modules'));
  made.push(ws);
  return ws;
}

const PY_BUGGY = 'def answer():\n    return 41';
const PY_GOOD = 'def answer():\n    return 42';
const PY_PATCHES = [
  // unittest's assertion, by a name built at run time.
  `${PY_BUGGY}\nimport unittest as _u\nsetattr(_u.TestCase, 'assert' + 'Equal', lambda *a, **k: None)`,
  // pytest's report made to say passed.
  `${PY_BUGGY}\nimport importlib as _i\n_r = getattr(_i.import_module(''.join(map(chr, [95, 112, 121, 116, 101, 115, 116])) + '.reports'), 'Test' + 'Report')\n` +
    `_init = _r.__init__\ndef _ok(self, *a, **k):\n    _init(self, *a, **k)\n    self.outcome = 'passed'\n    self.longrepr = None\nsetattr(_r, '__in' + 'it__', _ok)`,
  // Objects that equal anything, their __eq__ named at run time: set on a class the function makes, and given to type().
  "def answer():\n    class _E:\n        pass\n    setattr(_E, '__e' + 'q__', lambda s, o: True)\n    return _E()",
  "def answer():\n    return type('_E', (), {'__e' + 'q__': lambda s, o: True})()",
];

function pythonWorkspace(): string {
  const ws = makeWorkspace({
    'answer.py': `${PY_BUGGY}\n`,
    'test_answer.py': 'import unittest\nfrom answer import answer\n\nclass T(unittest.TestCase):\n    def test_answer(self):\n        self.assertEqual(answer(), 42)\n\ndef test_other():\n    assert 1 + 1 == 2\n\ndef test_plain():\n    assert answer() == 42\n',
  }, { git: true });
  made.push(ws);
  return ws;
}

interface Json {
  candidates: Array<{ index: number; verified: boolean; status: string; reason?: string }>;
  verified: number[];
  baseline: { failingTests: string[] };
}

/**
 * One request over `patches` and then the real fix, each replacing `lines` of `file`: the baseline fails only
 * `failing`, the fix is the only one verified, and every patch failed in its runs (not refused by a static check:
 * the runs themselves held).
 */
async function onlyTheFixVerified(ws: string, target: { file: string; lines: string; test: string }, patches: readonly string[], fix: string, failing: readonly string[]): Promise<void> {
  const list = join(ws, '..', `${ws.split('/').pop()}-candidates.json`);
  writeFileSync(list, JSON.stringify([...patches, fix]));
  made.push(list);
  const r = await runCli(['fix', '--workspace', ws, '--file', target.file, '--lines', target.lines, '--candidates', list, '--test', target.test, '--k', '1',
    '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'off', '--json'], { env });
  assert.equal(r.exitCode, 0, r.stderr);
  const json = JSON.parse(r.stdout) as Json;
  assert.deepEqual(json.baseline.failingTests, failing, r.stderr);
  assert.deepEqual(json.verified, [patches.length], r.stderr);
  for (const c of json.candidates.slice(0, patches.length)) {
    assert.equal(c.status, 'fail', JSON.stringify(c));
    assert.doesNotMatch(c.reason ?? '', /changes how the tests run/, JSON.stringify(c));
  }
}

const JS_TARGET = { file: 'src/answer.js', lines: '1-1', test: 'npm test' };

for (const runner of ['node', 'mocha'] as const) {
  describe(`assertion patches by computed names (${runner})`, () => {
    it('fail as the bug they keep does; the fix is the only one verified; a project\'s own helper on assert still works', async () => {
      // The helper test passes on the unmodified code: only the answer test fails there.
      await onlyTheFixVerified(workspace(runner), JS_TARGET, PATCHES, GOOD, ['test/answer.test.js > answer']);
    });

    if (runner === 'mocha') {
      it('chai patches fail where a test file requires chai', async () => {
        await onlyTheFixVerified(workspace(runner, 'chai'), JS_TARGET, CHAI_PATCHES, GOOD, ['test/answer.test.js > answer']);
      });
    }
  });
}

describe('assertion and report patches and objects that equal anything, by computed names (pytest)', () => {
  it('fail as the bug they keep does; the fix is the only one verified', async () => {
    await onlyTheFixVerified(pythonWorkspace(), { file: 'answer.py', lines: '1-2', test: 'python3 -m pytest -q' }, PY_PATCHES, PY_GOOD, ['test_answer.py::T::test_answer', 'test_answer.py::test_plain']);
  });
});

describe('matcher and global patches by computed names (jest 29)', () => {
  it('fail as the bug they keep does; the fix is the only one verified; a project\'s own matcher still works', async () => {
    await onlyTheFixVerified(jestWorkspace(false), JS_TARGET, JEST_PATCHES, GOOD, ['test/answer.test.js > answer']);
  });

  it('fail as well where the project has setup files of its own, which still run', async () => {
    await onlyTheFixVerified(jestWorkspace(true), JS_TARGET, JEST_PATCHES, GOOD, ['test/answer.test.js > answer']);
  });

  it('node:assert patches fail where the tests assert with it', async () => {
    await onlyTheFixVerified(jestWorkspace(true, 'node:assert'), JS_TARGET, PATCHES, GOOD, ['test/answer.test.js > answer']);
  });

  it('a returned object that claims to match anything fails toEqual as the bug does', async () => {
    await onlyTheFixVerified(jestWorkspace(false, 'toEqual'), JS_TARGET, CLAIMS.map((body) => `function answer() { ${body} }`), GOOD, ['test/answer.test.js > answer']);
  });
});

for (const [label, modules, folder] of [['vitest 3', join(repoRoot, 'node_modules'), ''], ['vitest 1', cachedRunner('vitest-1', 'vitest'), 'vitest-1']] as const) {
  describe(`matcher patches by computed names (${label})`, () => {
    it('fail as the bug they keep does; the fix is the only one verified; the project\'s own setup file, matcher and tester still work', { skip: modules ? false : missingRunner(folder) }, async () => {
      // vitest 3 with `globals: true` (the global expect and test patched too), vitest 1 with imports.
      const globals = label === 'vitest 3';
      await onlyTheFixVerified(vitestWorkspace(modules as string, globals), JS_TARGET, vitestCandidates(globals ? [...VITEST_PATCHES, ...GLOBAL_PATCHES] : VITEST_PATCHES), VITEST_GOOD, ['test/answer.test.js > answer']);
    });

    it('node:assert patches fail where the tests assert with it', { skip: modules ? false : missingRunner(folder) }, async () => {
      await onlyTheFixVerified(vitestWorkspace(modules as string, false, 'node:assert'), JS_TARGET, VITEST_NODE_ASSERT_PATCHES, VITEST_GOOD, ['test/answer.test.js > answer']);
    });

    it('a returned object that claims to match anything fails toEqual as the bug does', { skip: modules ? false : missingRunner(folder) }, async () => {
      await onlyTheFixVerified(vitestWorkspace(modules as string, label === 'vitest 3', 'toEqual'), JS_TARGET, CLAIMS.map((body) => `export function answer() { ${body} }`), VITEST_GOOD, ['test/answer.test.js > answer']);
    });

    // `test.projects` came with vitest 3.2.
    if (label === 'vitest 3') {
      it('fail as well in an inline project that does not extend the root config', async () => {
        await onlyTheFixVerified(vitestWorkspace(modules as string, true, 'expect', true), JS_TARGET, vitestCandidates([...VITEST_PATCHES, ...GLOBAL_PATCHES]), VITEST_GOOD, ['test/answer.test.js > answer']);
      });
    }
  });
}

describe('assertion patches by computed names (tape 5)', () => {
  const modules = cachedRunner('tape-5', 'tape');
  it('fail as the bug they keep does; the fix is the only one verified; the project\'s own assertion still works', { skip: modules ? false : missingRunner('tape-5') }, async () => {
    await onlyTheFixVerified(tapeWorkspace(modules as string), JS_TARGET, TAPE_PATCHES, GOOD, ['test/answer.js > answer']);
  });
});

describe('assertion patches by computed names (ava 6)', () => {
  const modules = cachedRunner('ava-6', 'ava');
  for (const assertion of ['is', 'deepEqual'] as const) {
    it(`fail as the bug they keep does under t.${assertion}; the fix is the only one verified`, { skip: modules ? false : missingRunner('ava-6') }, async () => {
      await onlyTheFixVerified(avaWorkspace(modules as string, assertion), JS_TARGET, AVA_PATCHES[assertion], GOOD, ['test/answer.test.js > answer']);
    });
  }
});
