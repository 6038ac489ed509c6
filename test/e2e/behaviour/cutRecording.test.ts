// A recording run cut short by its time limit, through the built CLI with real test runs: a test that only waits when
// it runs under the behaviour check's recording (so the baseline and the candidates pass in no time) holds the whole
// suite's recording run past --timeout. What it recorded until then is replayed, and the report says it is partial,
// never a silent "fewer inputs" or "the tests never called it".
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { candidatesFile, JS_CEIL, JS_PAGES, JS_PAGES_TESTS, JS_ROUND_UP, nodeTestPackage, PY_NEGATED, PY_PAGES, PY_PAGES_TESTS, PY_ROUND_UP, PYTEST } from '../../unit/helpers/behaviourFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));

const JS_WAITS = "test('waits while recorded', () => new Promise((done) => setTimeout(done, process.env.VERIFIED_FIX_RECORD ? 600000 : 0)));";
const PY_WAITS = "def test_waits_while_recorded():\n    import os, time\n    if os.environ.get('VERIFIED_FIX_RECORD'): time.sleep(600)\n";

async function behaviour(files: Record<string, string>, file: string, candidates: string[], extra: string[]) {
  const ws = makeWorkspace(files, { git: true });
  made.push(ws);
  const list = candidatesFile(ws, candidates, made);
  // A test timeout short enough that the waiting recording run ends soon, long enough that a loaded machine's baseline
  // (whose limit is the user's wall time) still passes.
  const args = ['fix', '--workspace', ws, '--file', file, '--lines', '2-2', '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'quick', '--timeout', '20', '--json', ...extra];
  const r = await runCli(args, { env });
  assert.equal(r.exitCode, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('the behaviour check when a recording run is cut short', () => {
  it('JavaScript: replays what the whole suite recorded until its timeout, and says the recording was cut short', async () => {
    const files = { 'src/pages.js': JS_PAGES, 'test/pages.test.js': `${JS_PAGES_TESTS}\n${JS_WAITS}\n`, 'package.json': nodeTestPackage('pages') };
    const { verified, behaviour: report } = await behaviour(files, 'src/pages.js', [JS_CEIL, JS_ROUND_UP], []);
    assert.deepEqual(verified, [0, 1]);
    assert.equal(report.status, 'compared', JSON.stringify(report));
    assert.match(report.reason ?? '', /the whole suite's recording run was cut short \(timed out after .*\): only the inputs it recorded until then are replayed/);
    // The failing tests' own run does not wait: their input is still told from the others'.
    assert.equal(report.observed, 2);
    assert.equal(report.failingTestInputs, 1);
  });

  it('Python: the same, through the pytest recording and the Python harness', async () => {
    const files = { 'src/pages.py': PY_PAGES, 'tests/test_pages.py': `${PY_PAGES_TESTS}\n${PY_WAITS}`, 'pytest.ini': '[pytest]\npythonpath = src\n' };
    const { verified, behaviour: report } = await behaviour(files, 'src/pages.py', [PY_NEGATED, PY_ROUND_UP], ['--test', PYTEST]);
    assert.deepEqual(verified, [0, 1]);
    assert.equal(report.status, 'compared', JSON.stringify(report));
    assert.match(report.reason ?? '', /the whole suite's recording run was cut short \(timed out after .*\)/);
    assert.equal(report.observed, 2);
    assert.equal(report.failingTestInputs, 1);
  });
});
