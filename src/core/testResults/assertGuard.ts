// Assertions locked before any test or code under test loads: a candidate that replaces `assert.strictEqual` or
// jest's `toBe` with a no-op through a name built at run time (which no static check can read) finds the property
// read-only, and the tests assert for real.

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
  var assert;
  try { assert = require('assert'); } catch (e) { return; }
  lock(assert);
  lock(assert.strict);
})();
`;

/** The jest guard's file name in a run's output folder. */
export const JEST_GUARD_FILE = 'verified-fix-jest-guard.cjs';

/**
 * The jest guard, a `setupFilesAfterEnv` file: it runs in each test file's environment once the framework is in,
 * before the test file and the code under test load. Jest's matchers (`toBe`, `toEqual`, … in the object every
 * `expect` reads them from), the equality testers `expect.addEqualityTesters` adds to (frozen: none can be added
 * from here on) and `Object.is` (what `toBe` compares with) become read-only. `expect.extend` still adds new
 * matchers; one that replaces a built-in throws.
 */
export const JEST_GUARD_SOURCE = `'use strict';
// Verified Fix: jest's own matchers are read-only in test runs. Written by the engine; not part of the project.
(function () {
  ${LOCK_SOURCE}
  var shared = globalThis[Symbol.for('$$jest-matchers-object')];
  if (shared) {
    lock(shared.matchers);
    if (Array.isArray(shared.customEqualityTesters)) Object.freeze(shared.customEqualityTesters);
  }
  var is = Object.getOwnPropertyDescriptor(Object, 'is');
  if (is && is.configurable) Object.defineProperty(Object, 'is', { value: is.value, writable: false, configurable: false, enumerable: is.enumerable });
})();
`;
