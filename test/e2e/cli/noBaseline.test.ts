// Attack (issue #25 item 9): with --no-baseline a disguised exit before the tests was "verified", and so was a candidate
// that skips the tests it fails. The CLI says at the start what a pass is judged by, and where the runner's report can
// be read each run is held to its own per-test counts: a file without a test, or fewer tests than another run ran.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { repoRoot } from '../../unit/helpers/paths';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const ws = makeWorkspace({
  'package.json': JSON.stringify({ name: 'n', private: true, scripts: { test: 'node --test' } }),
  'src/n.js': 'function n() {\n  return 1;\n}\nmodule.exports = { n };\n',
  'test/n.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { n } = require('../src/n');\n" +
    "test('a', () => assert.strictEqual(n(), 2));\ntest('b', () => assert.strictEqual(n() + 1, 3));\ntest('c', () => assert.ok(n()));\n",
}, { git: true });
after(() => remove(tempRoot, ws));

// By its own name: `node …/mocha.js` is not a runner whose report this tool reads.
const mochaBin = join(repoRoot, 'node_modules', '.bin', 'mocha');
const mochaWs = makeWorkspace({
  'package.json': JSON.stringify({ name: 'm', private: true }),
  'src/n.js': 'function n(x) {\n  return x + 1;\n}\nmodule.exports = { n };\n',
  'test/n.test.js': "const assert = require('node:assert');\nconst { n } = require('../src/n');\n" +
    "it('a', () => assert.strictEqual(n(1), 2));\nit('b', () => assert.strictEqual(n(2), 4));\nit('c', () => assert.strictEqual(n(0), 0));\n",
}, { git: true });
after(() => remove(mochaWs));

describe('--no-baseline', () => {
  it('fails a disguised exit before the tests: node names the file, which ran no test of its own', async () => {
    const file = join(tempRoot, 'candidates.json');
    writeFileSync(file, JSON.stringify(["  require('node:pro' + 'cess')['ex' + 'it'](0);"]));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/n.js', '--lines', '2-2', '--candidates', file, '--no-baseline', '--json'], { env });
    assert.match(r.stderr, /the baseline check is off .*a pass is judged by its own per-test report/, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.verified.length, 0, r.stdout);
    assert.match(result.candidates[0].reason, /test\/n\.test\.js ran no test of its own|no test ran/, r.stdout);
  });

  it('fails a candidate that skips the tests it fails, against the count of another candidate\'s run, whichever finished first', async () => {
    const file = join(tempRoot, 'skips.json');
    // Right for test a only; b and c become pending before mocha defines them. Run first and alone (--parallel 1), it is
    // verified before the run that counts 3 tests comes in: the check once every verdict is in takes it back.
    const skips = "  return x + 1;\n}\nconst it0 = globalThis['i' + 't'];\nglobalThis['i' + 't'] = (t, f) => it0(t, t === 'a' ? f : undefined);\n{";
    writeFileSync(file, JSON.stringify([skips, '  return x * 3;', '  return x * 2;']));
    const r = await runCli(['fix', '--workspace', mochaWs, '--file', 'src/n.js', '--lines', '2-2', '--candidates', file, '--test', `${mochaBin} test/n.test.js`, '--no-baseline', '--json', '--parallel', '1'], { env });
    const result = JSON.parse(r.stdout);
    assert.deepEqual(result.verified, [2], r.stdout);
    assert.match(result.candidates[0].reason, /fewer tests ran in test\/n\.test\.js than in another run of this request \(1 of 3\)/, r.stdout);
  });
});

describe('the human report', () => {
  it('prints a candidate\'s terminal escapes and carriage returns visibly (no clipboard write, no overprinted line)', async () => {
    const file = join(tempRoot, 'escapes.json');
    writeFileSync(file, JSON.stringify(["  return 2; /* \u001b]52;c;ZXZpbA==\u0007\r\u001b[1A\u001b[2K+ verified */"]));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/n.js', '--lines', '2-2', '--candidates', file], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.ok(!/[\u001b\r\u0007]/.test(r.stdout), JSON.stringify(r.stdout));
    assert.match(r.stdout, /\^\[\]52;c;ZXZpbA==\^G\^M\^\[\[1A/);
  });
});
