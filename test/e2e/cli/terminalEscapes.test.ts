// Attack (issue #25 item 11): a candidate's text, or a file name, holding OSC 52 (a clipboard write), cursor moves and a
// carriage return reached the terminal raw through the CLI's stderr lines (progress, log); the human report already
// showed them as text. Every stderr line now goes through the same escaping, in the CLI's one writer.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

/** A clipboard write, a carriage return, the cursor one line up, the line erased, then a forged verdict. */
const FORGERY = '\u001b]52;c;ZXZpbA==\u0007\r\u001b[1A\u001b[2Kcandidate #9 pass';
const RAW = /[\u001b\u0007\r]/;

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
// The test file's own name carries the sequence too: the log line of the baseline's failing tests names it.
const testFile = `test/n${FORGERY}.test.js`;
const ws = makeWorkspace({
  'package.json': JSON.stringify({ name: 'n', private: true, scripts: { test: 'node --test' } }),
  'src/n.js': 'function n() {\n  return 1;\n}\nmodule.exports = { n };\n',
  [testFile]: "const test = require('node:test');\nconst assert = require('node:assert');\nconst { n } = require('../src/n');\ntest('a', () => assert.strictEqual(n(), 2));\n",
}, { git: true });
after(() => remove(tempRoot, ws));

describe('the CLI\'s stderr lines', () => {
  it('show a candidate\'s escapes and a file name\'s as text: no clipboard write, no overprinted line', async () => {
    const file = join(tempRoot, 'escapes.json');
    // Right, and it registers a failing test of its own named with the sequence: the progress line names that test.
    const registers = `  return 2; } require('node:te' + 'st')(${JSON.stringify(`t${FORGERY}`)}, () => { throw new Error('m'); }); {`;
    writeFileSync(file, JSON.stringify([registers, '  return 2;']));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/n.js', '--lines', '2-2', '--candidates', file, '--verbose', '--parallel', '1'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.ok(!RAW.test(r.stderr), JSON.stringify(r.stderr));
    assert.match(r.stderr, /candidate #1 fail: .*> t\^\[\]52;c;ZXZpbA==\^G\^M\^\[\[1A\^\[\[2Kcandidate #9 pass/, r.stderr);
    assert.match(r.stderr, /test\/n\^\[\]52;c;ZXZpbA==\^G\^M\^\[\[1A\^\[\[2Kcandidate #9 pass\.test\.js > a/, r.stderr);
  });

  it('keep --json as JSON: the same text escaped as JSON escapes it', async () => {
    const file = join(tempRoot, 'escapes-json.json');
    writeFileSync(file, JSON.stringify([`  return 2; } require('node:te' + 'st')(${JSON.stringify(`t${FORGERY}`)}, () => { throw new Error('m'); }); {`]));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/n.js', '--lines', '2-2', '--candidates', file, '--json'], { env });
    assert.ok(!RAW.test(r.stdout), JSON.stringify(r.stdout));
    assert.ok((JSON.parse(r.stdout) as { candidates: Array<{ reason: string }> }).candidates[0].reason.includes(`t${FORGERY}`), r.stdout);
  });
});
