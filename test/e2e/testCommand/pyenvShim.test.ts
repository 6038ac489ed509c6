// Through the built CLI with the machine's own pyenv: where python3 on PATH is pyenv's shim, the runs start the python
// pyenv picks for the workspace directly, set up as `pyenv exec` sets up what it starts (that version's bin folder on
// PATH, PYENV_VERSION). A test of the project reads its environment: every start through the shim runs pyenv, which
// exports PYENV_HOOK_PATH and PYENV_DIR (the runs' environment has neither), so it passes only without the shim.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { onPath } from '../../../src/core/testCommand/toolchain';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const python3 = onPath('python3', process.env);
const viaPyenv = python3 !== undefined && spawnSync(python3, ['-c', 'import pytest']).status === 0 && /[\\/]shims[\\/]python3$/.test(python3) && spawnSync('pyenv', ['--version']).status === 0;
const tempRoot = makeTempRoot();
const made: string[] = [tempRoot];
after(() => remove(...made));

const files = {
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'calc.py': 'def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return lo\n    return x\n',
  'tests/test_clamp.py': 'from calc import clamp\n\n\ndef test_caps():\n    assert clamp(15, 0, 10) == 10\n\n\ndef test_keeps():\n    assert clamp(5, 0, 10) == 5\n',
  'tests/test_path.py': [
    'import os',
    '',
    '',
    'def test_started_without_the_shim():',
    '    assert "PYENV_HOOK_PATH" not in os.environ and "PYENV_DIR" not in os.environ, "pyenv ran in between"',
    '',
    '',
    'def test_set_up_as_pyenv_exec_does():',
    '    version = os.environ["PYENV_VERSION"]',
    '    assert os.path.join("versions", version, "bin") in os.environ["PATH"], os.environ["PATH"]',
    '',
  ].join('\n'),
};

describe('pyenv\'s shim on PATH', { skip: !viaPyenv && 'needs python3 (with pytest) through a pyenv shim' }, () => {
  it("is passed over: the runs start pyenv's python for the workspace, set up as pyenv exec sets it up", async () => {
    const ws = makeWorkspace(files);
    const folder = makeWorkspace({ 'candidates.json': JSON.stringify(['        return hi']) });
    made.push(ws, folder);
    const args = ['fix', '--workspace', ws, '--file', 'calc.py', '--lines', '5-5', '--provider', 'file', '--candidates', join(folder, 'candidates.json'), '--test', 'python3 -m pytest -q'];
    const r = await runCli([...args, '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'off', '--json', '--verbose'], { env: { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot } });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /toolchain: python \S+ \(\S+[\\/]versions[\\/][^\s/\\]+[\\/]bin[\\/]python3\)/, r.stderr);
    assert.match(r.stderr, /toolchain: python3 on PATH is pyenv's shim \(\S+\): the runs start pyenv's python for this workspace \(\S+\) directly/, r.stderr);
    const json = JSON.parse(r.stdout) as { candidates: Array<{ verified: boolean }> };
    assert.equal(json.candidates[0].verified, true, r.stderr);
  });
});
