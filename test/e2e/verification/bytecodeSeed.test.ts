// Python's bytecode carried from the baseline into the request's later runs (bytecodeSeed.ts), on real pytest through
// the built CLI. The workspace holds no bytecode and every run after the baseline's writes none, so a test that needs
// the bytecode of a helper module and its own rewritten test module passes only in a run that reads the baseline's:
// the right candidate is verified only where they are carried over.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { PYTHON_FILES, PYTHON_RIGHT, PYTHON_WRONG, candidatesRequest } from './sharedRoundsRequests';

const FILES: Record<string, string> = {
  ...PYTHON_FILES,
  'tests/test_compiled.py': [
    'import glob, importlib.util, os',
    'import helper',
    'def test_compiled_beforehand():',
    '    assert helper.double(2) == 4',
    '    assert os.path.exists(importlib.util.cache_from_source(helper.__file__)), "no bytecode of helper.py"',
    "    here = os.path.join(os.path.dirname(__file__), '__pycache__', 'test_compiled.*-pytest-*.pyc')",
    '    assert glob.glob(here), "no rewritten bytecode of this test module"',
    '',
  ].join('\n'),
};

const pytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
describe("python's bytecode from the baseline (pytest)", { skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed' }, () => {
  for (const [sandbox, named] of [['bwrap', /bubblewrap sandbox/], ['unshare', /PID and mount namespaces/]] as const) {
    it(`gives every later run the modules the baseline compiled, its test modules in read-only folders included (${sandbox})`, async () => {
      const ws = makeWorkspace(FILES);
      const r = await candidatesRequest(ws, 'src/calc.py', [PYTHON_RIGHT, PYTHON_WRONG], 'python3 -m pytest -q', 2, ['--sandbox', sandbox]);
      assert.match(r.stderr, named, r.stderr);
      assert.match(r.stderr, /per-test results \(pytest\): 1 of 3 tests fail on the unmodified code: tests\/test_calc\.py::test_caps_at_hi/, r.stderr);
      assert.match(r.stderr, /python's bytecode: each later run reads what the baseline compiled \(\d+ files, [\d.]+ MB; the file under repair's left out\)/, r.stderr);
      assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
      assert.equal(r.candidates[0].verified, true, r.stderr);
    });
  }
});
