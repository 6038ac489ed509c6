// Workspace-level localisation through the engine: a test that fails by assertion only (its stack names only the
// test file), two source files and a helper the failing test also runs; the fix is found in the right function, tried first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWorkspaceFix } from '../../../src/core/engine/workspaceFix';
import { localiseRequest } from '../../../src/core/engine/workspaceLocalisation';
import type { WorkspaceFixRequest } from '../../../src/core/engine/workspaceLocalisation';
import type { Logger } from '../../../src/core/base/logger';
import { createMutationProvider } from '../../../src/core/providers/mutationProvider';
import { clampProject } from '../../unit/helpers/clampProject';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const workspaces: string[] = [];
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => remove(tempRoot, ...workspaces));

function request(ws: string, logs: string[], extra: Partial<WorkspaceFixRequest> = {}): WorkspaceFixRequest {
  const logger: Logger = { trace() {}, info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(String(m)) };
  return {
    workspace: ws, testCommand: 'node --test test/', samples: 20, testTimeoutMs: 600_000, totalTimeoutMs: 1_800_000, parallel: 2,
    baselineCheck: true, confirmRuns: 1, strengthCheck: 'off',
    isolation: { linkedFolders: ['node_modules'], excludes: [], allowNetwork: false, memoryMB: 0 },
    provider: createMutationProvider(), logger, ...extra,
  };
}

describe('workspace-level localisation', { concurrency: 1 }, () => {
  it('an assertion-only failure: the function the failing test alone runs is ranked and tried first, and its fix verified', async () => {
    const ws = makeWorkspace(clampProject);
    workspaces.push(ws);
    const logs: string[] = [];
    const out = await runWorkspaceFix(request(ws, logs));
    const names = out.localisation.ranked.map((f) => `${f.relativePath}:${f.name}`);
    assert.equal(names[0], 'src/range.js:clamp', logs.join('\n'));
    assert.ok(names.includes('src/util.js:toInt'), names.join(', '));
    const clamp = out.localisation.ranked[0];
    const toInt = out.localisation.ranked.find((f) => f.name === 'toInt');
    assert.equal(clamp.coverage, 1);
    assert.ok(toInt && toInt.score < clamp.score, `toInt ${toInt?.score} vs clamp ${clamp.score}`);
    assert.match(out.localisation.explanations.join('\n'), /the failing test `[^`]*clamp keeps the upper bound` runs src\/range\.js:clamp \(score 1\.0\), src\/util\.js:toInt \(0\.\d\)/);
    assert.equal(out.tried[0].name, 'clamp');

    assert.equal(out.found?.name, 'clamp');
    assert.equal(out.result?.relativePath, 'src/range.js');
    assert.deepEqual(out.lines, [2, 11]);
    const fix = out.result?.candidates.find((c) => c.verified);
    assert.match(fix?.diff ?? '', /\+\s+return high;/);
    // The try reuses the localisation's baseline and coverage: no second baseline run, no coverage runs of its own.
    assert.equal(logs.filter((m) => m.startsWith('fault localisation')).length, 0, logs.join('\n'));
    assert.ok(logs.some((m) => /from the workspace localisation/.test(m)), logs.join('\n'));
    assert.equal(out.result?.baseline?.status, 'fail');
  });

  it('pytest: the plugin once per source file ranks the function only the failing test runs above the shared helper', async () => {
    const ws = makeWorkspace({
      'pkg/__init__.py': '',
      'pkg/util.py': 'def to_int(value):\n    return int(float(value))\n',
      'pkg/rng.py': 'from pkg.util import to_int\n\n\ndef clamp(value, low, high):\n    v = to_int(value)\n    if v < low:\n        return low\n    if v > high:\n        return low\n    return v\n',
      'tests/test_rng.py': 'from pkg.rng import clamp\nfrom pkg.util import to_int\n\n\ndef test_inside():\n    assert clamp(3, 0, 5) == 3\n\n\ndef test_upper():\n    assert clamp(9, 0, 5) == 5\n\n\ndef test_to_int():\n    assert to_int("4.7") == 4\n',
    });
    workspaces.push(ws);
    const logs: string[] = [];
    // Localisation alone: no provider is asked.
    const found = await localiseRequest(request(ws, logs, { testCommand: 'python3 -m pytest -q' }));
    assert.deepEqual(found.failingTests, ['tests/test_rng.py::test_upper'], logs.join('\n'));
    assert.deepEqual(found.ranked.slice(0, 2).map((f) => `${f.relativePath}:${f.name}`), ['pkg/rng.py:clamp', 'pkg/util.py:to_int'], logs.join('\n'));
    assert.equal(found.ranked[0].coverage, 1);
  });

  it('a test name that matches no failing test is a clear error naming the failing ones', async () => {
    const ws = makeWorkspace(clampProject);
    workspaces.push(ws);
    await assert.rejects(runWorkspaceFix(request(ws, [], { testNames: ['pad pads'] })), /no failing test matches "pad pads"; it ran and did not fail: `pad pads` \(passed\)\. Failing tests: `[^`]*clamp keeps the upper bound`/);
  });
});
