// Assertions locked before any test or code under test loads: a candidate that replaces `assert.strictEqual` or
// jest's or vitest's `toBe` with a no-op through a name built at run time (which no static check can read) finds
// the property read-only, and the tests assert for real.

/** `lock(target)`: each own property of `target` read-only and not redefinable; new properties can still be added. */
const LOCK_SOURCE = `function lock(target) {
    if (!target) return;
    Reflect.ownKeys(target).forEach(function (key) {
      var own = Object.getOwnPropertyDescriptor(target, key);
      if (!own || !own.configurable) return;
      if ('value' in own) own.writable = false;
      own.configurable = false;
      try { Object.defineProperty(target, key, own); } catch (e) { /* left as it was */ }
    });
  }`;

/** node:assert, held in `nodeAssert`, and its strict variant locked (a suite's own new helpers can still be added). */
const NODE_ASSERT_LOCK_SOURCE = `lock(nodeAssert);
  lock(nodeAssert && nodeAssert.strict);`;

/** node:assert loaded through `require` where there is one (CommonJS guards), then locked. */
const REQUIRED_NODE_ASSERT_LOCK_SOURCE = `var nodeAssert;
  try { nodeAssert = require('assert'); } catch (e) { /* no node:assert here */ }
  ${NODE_ASSERT_LOCK_SOURCE}`;

/**
 * Chai, where a test file `require`s it (chai 4, and chai 5 through Node's `require` of ES modules): when it loads,
 * `Assertion.prototype.assert`, which every `expect`/`should` assertion and the `assert` interface report through,
 * becomes read-only. The methods themselves (`equal`, …) stay writable: plugins (chai-as-promised, sinon-chai)
 * overwrite them as they load, and a candidate's `Assertion.overwriteMethod('equal', …)` still gets through. An
 * `import` of chai is not seen here.
 */
const CHAI_LOCK_SOURCE = `var Module = require('module');
  var load = Module._load;
  var chais = [];
  Module._load = function (request) {
    var exported = load.apply(this, arguments);
    if (request === 'chai' && exported && exported.Assertion && chais.indexOf(exported) < 0) {
      chais.push(exported);
      try {
        var proto = exported.Assertion.prototype;
        var own = Object.getOwnPropertyDescriptor(proto, 'assert');
        if (own && own.configurable) Object.defineProperty(proto, 'assert', { value: own.value, writable: false, configurable: false, enumerable: own.enumerable });
      } catch (e) { /* a chai of another shape: left as it is */ }
    }
    return exported;
  };`;

/** The node guard's file name in a run's output folder. */
export const ASSERT_GUARD_FILE = 'verified-fix-assert-guard.cjs';

/**
 * The node guard, loaded by `--require` into every node process of a run. Each function `node:assert` and
 * `node:assert/strict` export becomes read-only and cannot be redefined; new properties can still be added, so a
 * suite that adds its own helpers to `assert` keeps working (one that replaces node's own functions fails, and says
 * so in its TypeError). Assigning to a locked property is a no-op in sloppy code and a TypeError in strict code:
 * either way the patch does not take. Node's assert compares with primordials, which code cannot reach. Inert in a
 * process that cannot load the module.
 */
export const ASSERT_GUARD_SOURCE = `'use strict';
// Verified Fix: node:assert's own functions are read-only in test runs. Written by the engine; not part of the project.
(function () {
  ${LOCK_SOURCE}
  ${CHAI_LOCK_SOURCE}
  ${REQUIRED_NODE_ASSERT_LOCK_SOURCE}
})();
`;

/** `Object.is`, what `toBe` and ava's `t.is` compare with, read-only. */
const OBJECT_IS_LOCK_SOURCE = `var is = Object.getOwnPropertyDescriptor(Object, 'is');
  if (is && is.configurable) Object.defineProperty(Object, 'is', { value: is.value, writable: false, configurable: false, enumerable: is.enumerable });`;

/**
 * The ava guard, a function of ava's folder that ava's hook (avaHook.ts) calls in each of ava's workers before any
 * test file loads: `t.is` compares with `Object.is`, `t.deepEqual` and `t.like` with concordance's `compare`, both
 * looked up as each assertion runs, so both become read-only (concordance's exports in the copy ava itself loads:
 * a test file's import of it shares the loaded module). Ava's `t` is made per test, out of the code's reach.
 */
export const AVA_GUARD_SOURCE = `function (avaDir) {
    ${LOCK_SOURCE}
    try { if (avaDir) lock(require(require.resolve('concordance', { paths: [avaDir] }))); } catch (e) { /* another ava: left as it is */ }
    ${OBJECT_IS_LOCK_SOURCE}
  }`;

/**
 * The globals a test file calls as it runs (jest's, and vitest's with `globals: true`): its `require` or `import` of
 * the code under test runs first, so a candidate could otherwise swap `expect` for one whose matchers all pass, or
 * `test` for one that swallows the test's failure. Each that is there becomes read-only on the global object, and so
 * do its own properties (`expect.objectContaining`, `test.each`, …); the project's setup files ran before.
 */
const TEST_GLOBALS = ['expect', 'test', 'it', 'describe', 'suite', 'fit', 'fdescribe', 'xit', 'xtest', 'xdescribe', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach', 'assert', 'chai', 'vi', 'vitest', 'onTestFailed', 'onTestFinished'];

/**
 * The matchers' registry jest and vitest share the shape of (`globalThis[Symbol.for('$$jest-matchers-object')]`): its
 * matchers read-only, its equality testers frozen (none can be added from here on, so `expect.addEqualityTesters`
 * belongs in a setup file), and `Object.is`, what `toBe` compares with, read-only; then the test globals
 * (TEST_GLOBALS).
 */
const MATCHERS_AND_GLOBALS_LOCK_SOURCE = `${JSON.stringify(TEST_GLOBALS)}.forEach(function (name) {
    var own = Object.getOwnPropertyDescriptor(globalThis, name);
    if (!own || !own.configurable) return;
    if (typeof own.value === 'function') lock(own.value);
    if ('value' in own) own.writable = false;
    own.configurable = false;
    try { Object.defineProperty(globalThis, name, own); } catch (e) { /* left as it was */ }
  });
  var shared = globalThis[Symbol.for('$$jest-matchers-object')];
  if (shared) {
    lock(shared.matchers);
    if (Array.isArray(shared.customEqualityTesters)) Object.freeze(shared.customEqualityTesters);
  }
  ${OBJECT_IS_LOCK_SOURCE}`;

/**
 * The matchers that compare by equality and take an `asymmetricMatch` method's word for it (jest's `equals`, which
 * vitest shares, asks an object that has one, on either side): a candidate that keeps the bug and returns
 * `{ ['asymmetric' + 'Match']: () => true }` passes `expect(answer()).toEqual(42)`. `guardEquality(holder,
 * receivedOf)` wraps those of `holder`'s matchers so that one whose received value holds such an object (itself, or
 * within 5 levels of its own data properties, arrays, maps and sets; at most 500 values looked at, no getter run
 * but that method's) throws instead of comparing. Test code puts asymmetric matchers (`expect.any(Number)`) on the
 * expected side, where they still work.
 */
const EQUALITY_MATCHERS = ['toEqual', 'toStrictEqual', 'toMatchObject', 'toContainEqual'];
const EQUALITY_GUARD_SOURCE = `function claimsAnything(value) {
    var stack = [[value, 0]];
    for (var looked = 0; stack.length > 0 && looked < 500; looked++) {
      var next = stack.pop(), v = next[0], depth = next[1];
      if (v === null || (typeof v !== 'object' && typeof v !== 'function')) continue;
      var method;
      try { method = v.asymmetricMatch; } catch (e) { continue; }
      if (typeof method === 'function') return true;
      if (depth >= 5 || typeof v === 'function') continue;
      try {
        if (v instanceof Map || v instanceof Set) v.forEach(function (item, key) { stack.push([item, depth + 1], [key, depth + 1]); });
        Reflect.ownKeys(v).forEach(function (key) {
          var own = Object.getOwnPropertyDescriptor(v, key);
          if (own && 'value' in own) stack.push([own.value, depth + 1]);
        });
      } catch (e) { /* a value of another shape: not looked into */ }
    }
    return false;
  }
  function guardEquality(holder, receivedOf) {
    if (!holder) return;
    ${JSON.stringify(EQUALITY_MATCHERS)}.forEach(function (name) {
      var original = holder[name];
      if (typeof original !== 'function') return;
      var guarded = function () {
        if (claimsAnything(receivedOf(this, arguments))) {
          throw new Error('Verified Fix: the value under test has an asymmetricMatch method, which makes it equal anything in ' + name + '(): the test counts as failed');
        }
        return original.apply(this, arguments);
      };
      Reflect.ownKeys(original).forEach(function (key) {
        var own = Object.getOwnPropertyDescriptor(original, key);
        try { Object.defineProperty(guarded, key, own); } catch (e) { /* a function's own length or name */ }
      });
      try { holder[name] = guarded; } catch (e) { /* read-only: left as it is */ }
    });
  }`;

/** The jest guard's file name in a run's output folder. */
export const JEST_GUARD_FILE = 'verified-fix-jest-guard.cjs';

/**
 * The jest guard, a `setupFilesAfterEnv` file or, where the project has setup files of its own, a snapshot
 * serializer (jest.ts): either way it runs in each test file's environment once the framework is in, before the
 * test file and the code under test load. Jest's matchers (`toBe`, `toEqual`, … in the object every `expect` reads
 * them from), the equality testers, `Object.is` and the test globals become read-only
 * (MATCHERS_AND_GLOBALS_LOCK_SOURCE), and so do node:assert's functions, for suites that assert with it (jest hands
 * test files the process's own module). `expect.extend` still adds new matchers; one that replaces a built-in
 * throws. As a serializer it claims no value.
 */
export const JEST_GUARD_SOURCE = `'use strict';
// Verified Fix: jest's own matchers are read-only in test runs. Written by the engine; not part of the project.
(function () {
  ${LOCK_SOURCE}
  ${EQUALITY_GUARD_SOURCE}
  var registry = globalThis[Symbol.for('$$jest-matchers-object')];
  guardEquality(registry && registry.matchers, function (context, args) { return args[0]; });
  ${MATCHERS_AND_GLOBALS_LOCK_SOURCE}
  ${REQUIRED_NODE_ASSERT_LOCK_SOURCE}
})();
module.exports = { test: function () { return false; }, serialize: function () { return ''; }, print: function () { return ''; } };
`;

/** The vitest guard's file name in a run's output folder. */
export const VITEST_GUARD_FILE = 'verified-fix-vitest-guard.mjs';

/**
 * The vitest guard, the last of the run's `setupFiles` (the wrapper config adds it, vitestConfig.ts): it runs in each
 * test file's worker after the project's own setup files, before the test file and the code under test load.
 * Vitest's matchers live on chai's `Assertion.prototype` (reached through the global `expect`, whose assertions are
 * its instances): every method and property there, `assert` (what every matcher reports through) included, becomes
 * read-only, and so do the shared registry's matchers, its equality testers and `Object.is`
 * (MATCHERS_AND_GLOBALS_LOCK_SOURCE), and node:assert's functions. `expect.extend` still adds new matchers; one
 * that replaces a built-in throws (chai's modules are strict). Checked on vitest 1.6, 2.1 and 3.2.
 */
export const VITEST_GUARD_SOURCE = `// Verified Fix: vitest's own matchers are read-only in test runs. Written by the engine; not part of the project.
import nodeAssert from 'node:assert';
(function () {
  ${LOCK_SOURCE}
  ${NODE_ASSERT_LOCK_SOURCE}
  ${EQUALITY_GUARD_SOURCE}
  var expect = globalThis[Symbol.for('expect-global')];
  if (typeof expect === 'function') {
    try {
      var proto = Object.getPrototypeOf(expect(undefined));
      // Chai keeps the received value in the assertion's flags.
      guardEquality(proto, function (context) { return context && context.__flags ? context.__flags.object : undefined; });
      lock(proto);
    } catch (e) { /* an expect of another shape: left as it is */ }
  }
  ${MATCHERS_AND_GLOBALS_LOCK_SOURCE}
})();
`;
