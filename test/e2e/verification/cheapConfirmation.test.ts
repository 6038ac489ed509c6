// Through the built CLI on a node --test project whose command names its folder: stage 1 by file, and a confirmation that repeats the fixed test only.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
delete env.NODE_TEST_CONTEXT;
const made: string[] = [tempRoot];
after(() => remove(...made));

const header = "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { clamp } = require('../src/calc');\n";
const files = {
  'package.json': JSON.stringify({ name: 'cheap-confirm', private: true }),
  'src/calc.js': 'function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return lo;\n  return x;\n}\nmodule.exports = { clamp };\n',
  'test/clamp.test.js': `${header}test('caps at hi', () => assert.equal(clamp(15, 0, 10), 10));\n`,
  'test/low.test.js': `${header}test('raises to lo', () => assert.equal(clamp(-5, 0, 10), 0));\n`,
  'test/inside.test.js': `${header}test('keeps inside', () => assert.equal(clamp(5, 0, 10), 5));\n`,
};

describe('cheap confirmation through the CLI', () => {
  it('stage 1 starts the failing test\'s file only; the confirmation repeats the fixed test; the verdict says so', async () => {
    const ws = makeWorkspace(files);
    const folder = makeWorkspace({ 'candidates.json': JSON.stringify(['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return lo;\n  if (x > hi) return hi;']) });
    made.push(ws, folder);
    const args = ['fix', '--workspace', ws, '--file', 'src/calc.js', '--lines', '2-3', '--provider', 'file', '--candidates', join(folder, 'candidates.json')];
    args.push('--test', 'node --test test/', '--parallel', '1', '--confirm-runs', '2', '--k', '1', '--strength', 'off', '--json', '--verbose');
    const r = await runCli(args, { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /stage 1 \(the failing tests\): starts only their files, in place of `test\/` from the command/);
    const json = JSON.parse(r.stdout);
    const [wrong, right] = json.candidates;
    assert.equal(wrong.stage, 'failing-tests');
    assert.equal(wrong.tests.passed + wrong.tests.failed, 1, 'stage 1 ran the failing test alone');
    assert.equal(right.verified, true, r.stderr);
    assert.deepEqual(right.confirmedOn, ['test/clamp.test.js > caps at hi']);
    assert.deepEqual(right.runs, ['pass', 'pass']);
    assert.deepEqual(right.tests, { fixed: ['test/clamp.test.js > caps at hi'], broke: [], passed: 3, failed: 0 }, 'the evidence is the full run\'s');
    assert.match(r.stderr, /full suite passed; fixed tests passed 2\/2 runs/);
  });
});
