// Workspace-level localisation through the engine: a test that fails by assertion only (its stack names only the
// test file), two source files and a helper the failing test also runs; the fix is found in the right function, tried first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWorkspaceFix } from '../../../src/core/engine/workspaceFix';
import type { WorkspaceFixRequest } from '../../../src/core/engine/workspaceLocalisation';
import type { Logger } from '../../../src/core/base/logger';
import { createMutationProvider } from '../../../src/core/providers/mutationProvider';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const workspaces: string[] = [];
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => remove(tempRoot, ...workspaces));

/** The helper every test runs: the failing test runs it too, so its lines score below clamp's bug line. */
export const utilJs = [
  'function toInt(value) {',
  '  return Math.trunc(Number(value));',
  '}',
  'function pad(n) {',
  "  return String(toInt(n)).padStart(2, '0');",
  '}',
  'module.exports = { toInt, pad };',
  '',
].join('\n');

/** Line 8 returns the lower bound where the upper one is meant: only the failing test runs it. */
export const rangeJs = [
  "const { toInt } = require('./util');", //  1
  'function clamp(value, low, high) {', //    2
  '  const v = toInt(value);', //             3
  '  if (v < low) {', //                      4
  '    return low;', //                       5
  '  }', //                                   6
  '  if (v > high) {', //                     7
  '    return low;', //                       8
  '  }', //                                   9
  '  return v;', //                           10
  '}', //                                     11
  'module.exports = { clamp };',
  '',
].join('\n');

export const rangeTest = [
  "const test = require('node:test');",
  "const assert = require('node:assert/strict');",
  "const { clamp } = require('../src/range');",
  "const { toInt, pad } = require('../src/util');",
  "test('clamp keeps a value inside', () => assert.equal(clamp(3, 0, 5), 3));",
  "test('clamp keeps the lower bound', () => assert.equal(clamp(-2, 0, 5), 0));",
  "test('clamp keeps the upper bound', () => assert.equal(clamp(9, 0, 5), 5));",
  "test('toInt truncates', () => assert.equal(toInt('4.7'), 4));",
  "test('pad pads', () => assert.equal(pad(7), '07'));",
  '',
].join('\n');

export const clampProject = { 'src/util.js': utilJs, 'src/range.js': rangeJs, 'test/range.test.js': rangeTest };

function request(ws: string, logs: string[], extra: Partial<WorkspaceFixRequest> = {}): WorkspaceFixRequest {
  const logger: Logger = { trace() {}, info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(String(m)) };
  return {
    workspace: ws, testCommand: 'node --test test/', samples: 20, testTimeoutMs: 30_000, totalTimeoutMs: 240_000, parallel: 2,
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
  });

  it('a test name that matches no failing test is a clear error naming the failing ones', async () => {
    const ws = makeWorkspace(clampProject);
    workspaces.push(ws);
    await assert.rejects(runWorkspaceFix(request(ws, [], { testNames: ['pad pads'] })), /no failing test matches "pad pads"; it ran and did not fail: `pad pads` \(passed\)\. Failing tests: `[^`]*clamp keeps the upper bound`/);
  });
});
