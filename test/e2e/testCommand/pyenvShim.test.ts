// Through the built CLI with the machine's own pyenv: where python3 on PATH is pyenv's shim, the runs start the python
// pyenv picks for the workspace directly, with its folder first on PATH as `pyenv exec` puts it. A test of the
// project reads the PATH it was started with: it passes only when the shim was passed over.
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
  // The runs' PATH as pyenv exec leaves it: the chosen version's bin folder first, not the shims'.
  'tests/test_path.py': 'import os\n\n\ndef test_started_without_the_shim():\n    first = os.environ["PATH"].split(os.pathsep)[0]\n    assert os.sep + "versions" + os.sep in first, first\n',
};

describe('pyenv\'s shim on PATH', { skip: !viaPyenv && 'needs python3 (with pytest) through a pyenv shim' }, () => {
  it("is passed over: the runs start pyenv's python for the workspace with its folder first on PATH", async () => {
    const ws = makeWorkspace(files);
    const folder = makeWorkspace({ 'candidates.json': JSON.stringify(['        return hi']) });
    made.push(ws, folder);
    const args = ['fix', '--workspace', ws, '--file', 'calc.py', '--lines', '5-5', '--provider', 'file', '--candidates', join(folder, 'candidates.json'), '--test', 'python3 -m pytest -q'];
    const r = await runCli([...args, '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'off', '--json', '--verbose'], { env: { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot } });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /toolchain: python \S+ \(\S+[\\/]versions[\\/][^\s/\\]+[\\/]bin[\\/]python3\)/, r.stderr);
    assert.match(r.stderr, /toolchain: python3 on PATH is pyenv's shim \(\S+\): the runs start the python pyenv picks for this workspace directly/, r.stderr);
    const json = JSON.parse(r.stdout) as { candidates: Array<{ verified: boolean }> };
    assert.equal(json.candidates[0].verified, true, r.stderr);
  });
});
