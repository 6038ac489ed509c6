// Node's assertion module, locked before any test or code under test loads: a candidate that replaces
// `assert.strictEqual` with a no-op through a name built at run time (which no static check can read) finds the
// property read-only, and the tests assert for real.

/** The guard's file name in a run's output folder. */
export const ASSERT_GUARD_FILE = 'verified-fix-assert-guard.cjs';

/**
 * The guard, loaded by `--require` into every node process of a run. Each function `node:assert` and
 * `node:assert/strict` export becomes read-only and cannot be redefined; new properties can still be added, so a
 * suite that adds its own helpers to `assert` keeps working (one that replaces node's own functions fails, and says
 * so in its TypeError). Assigning to a locked property is a no-op in sloppy code and a TypeError in strict code:
 * either way the patch does not take. Inert in a process that cannot load the module.
 */
export const ASSERT_GUARD_SOURCE = `'use strict';
// Verified Fix: node:assert's own functions are read-only in test runs. Written by the engine; not part of the project.
(function () {
  var assert;
  try { assert = require('assert'); } catch (e) { return; }
  [assert, assert.strict].forEach(function (target) {
    if (!target) return;
    Reflect.ownKeys(target).forEach(function (key) {
      var own = Object.getOwnPropertyDescriptor(target, key);
      if (!own || !own.configurable) return;
      if ('value' in own) own.writable = false;
      own.configurable = false;
      try { Object.defineProperty(target, key, own); } catch (e) { /* left as it was */ }
    });
  });
})();
`;
