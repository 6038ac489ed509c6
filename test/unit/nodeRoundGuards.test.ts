// The checks the node round hooks (mocha's, jest's) make between rounds, run in a fresh node as the hooks run them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { NODE_ROUND_GUARDS_SOURCE } from '../../src/core/testResults/nodeRoundGuards';

/** What `body` writes, run after the guards' source in a new node process (whose core modules nothing has used yet). */
function inFreshNode(body: string): string {
  const r = spawnSync(process.execPath, ['-e', `var fs = require('fs'); var path = require('path');\n${NODE_ROUND_GUARDS_SOURCE}\n${body}`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const changedSince = (step: string) => inFreshNode(`var before = builtins(); var util = require('util'); ${step}; process.stdout.write(changed(builtins(), before) || '(none)');`);

describe('the round guards\' check of built-ins and core modules', () => {
  it('takes a property node defines lazily (util.TextDecoder) for unchanged once something has used it', () => {
    // On chrono-node's jest suite the first round's environment used util.TextDecoder, and every shared process ended.
    assert.equal(changedSince('util.TextDecoder'), '(none)');
  });

  it('names a lazily defined property a candidate set, before or after its first use, and any other replaced one', () => {
    assert.equal(changedSince('util.TextDecoder = function Fake() {}'), 'require("util").TextDecoder');
    assert.equal(changedSince('util.TextDecoder; util.TextDecoder = function Fake() {}'), 'require("util").TextDecoder');
    assert.equal(changedSince("String.prototype.trim = function () { return ''; }"), 'String.prototype.trim');
  });
});
