// The environment every sandboxed run gets (localRun.ts): where tools cache, and how Python treats its bytecode.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localEnvironment } from '../../src/core/sandbox/localRun';

describe('a sandboxed run\'s environment', () => {
  it('lets Python read the bytecode beside each module and write none, rather than compile every module into the private /tmp', () => {
    // A prefix in the private /tmp starts empty in every run: the standard library and pytest compiled each time.
    for (const base of [{}, { PYTHONPYCACHEPREFIX: '/tmp/.pycache' }, { PYTHONPYCACHEPREFIX: '/var/tmp/pyc' }]) {
      const env = localEnvironment(base, true);
      assert.equal(env.PYTHONPYCACHEPREFIX, undefined, JSON.stringify(base));
      assert.equal(env.PYTHONDONTWRITEBYTECODE, '1');
    }
    // The user's own prefix outside the private folders is theirs to read (nothing is written to it).
    assert.equal(localEnvironment({ PYTHONPYCACHEPREFIX: '/home/dev/.cache/pyc' }, true).PYTHONPYCACHEPREFIX, '/home/dev/.cache/pyc');
    assert.equal(localEnvironment({ PYTHONPYCACHEPREFIX: '/tmpfiles/pyc' }, true).PYTHONPYCACHEPREFIX, '/tmpfiles/pyc');
  });

  it("lets the baseline's run write bytecode (into its own layer, for later runs to read), whatever the user's setting", () => {
    for (const base of [{}, { PYTHONDONTWRITEBYTECODE: '1' }]) assert.equal(localEnvironment(base, true, true).PYTHONDONTWRITEBYTECODE, undefined, JSON.stringify(base));
    assert.equal(localEnvironment({ PYTHONPYCACHEPREFIX: '/tmp/.pycache' }, true, true).PYTHONPYCACHEPREFIX, undefined, 'a prefix in the private /tmp would hide it from later runs');
  });

  it('keeps the other caches in the private /tmp inside a namespace, and the environment as it is outside one', () => {
    assert.equal(localEnvironment({}, true).XDG_CACHE_HOME, '/tmp/.cache');
    const outside = localEnvironment({ PYTHONPYCACHEPREFIX: '/tmp/.pycache' }, false);
    assert.equal(outside.PYTHONPYCACHEPREFIX, '/tmp/.pycache');
    assert.equal(outside.PYTHONDONTWRITEBYTECODE, undefined);
  });
});
