// Attack (issue #25 item 9): with --no-baseline a disguised exit before the tests is "verified"; the CLI now says at
// the start, as for a command without a summary, what a pass is judged by.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const ws = makeWorkspace({
  'package.json': JSON.stringify({ name: 'n', private: true, scripts: { test: 'node --test' } }),
  'src/n.js': 'function n() {\n  return 1;\n}\nmodule.exports = { n };\n',
  'test/n.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { n } = require('../src/n');\n" +
    "test('a', () => assert.strictEqual(n(), 2));\ntest('b', () => assert.strictEqual(n() + 1, 3));\ntest('c', () => assert.ok(n()));\n",
}, { git: true });
after(() => remove(tempRoot, ws));

describe('--no-baseline', () => {
  it('warns at the start what a pass is judged by', async () => {
    const file = join(tempRoot, 'candidates.json');
    writeFileSync(file, JSON.stringify(["  require('node:pro' + 'cess')['ex' + 'it'](0);"]));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/n.js', '--lines', '2-2', '--candidates', file, '--no-baseline'], { env });
    assert.match(r.stderr, /the baseline check is off .*a pass is judged by its exit code and its own summary alone/, r.stderr);
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
