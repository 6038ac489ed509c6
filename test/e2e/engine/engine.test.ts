// The engine end to end with real copies and processes: isolation, cleanup, streaming, duplicates, cancel.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixEvent, FixRequest } from '../../../src/core/contract/fixRequest';
import { UserError } from '../../../src/core/base/errors';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { detectSandbox } from '../../../src/core/sandbox/detect';
import { runnerFixture } from '../../unit/helpers/paths';
import { killMarked, newMarker, waitForNoSurvivors } from '../../unit/helpers/processes';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => remove(tempRoot));

/** A workspace whose "tests" read value.txt: the candidate replaces its only line. */
function valueWorkspace(git: boolean, extra: Record<string, string> = {}): string {
  return makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'v=$(cat value.txt); test "$v" = good\n', '.gitignore': 'ignored/\n', ...extra }, { git });
}

const isolation: FixRequest['isolation'] = { linkedFolders: ['node_modules'], excludes: [], allowNetwork: false, memoryMB: 0 };

/** A request replacing the first line of value.txt with each candidate. */
function request(workspace: string, candidates: string[], overrides: Partial<FixRequest> = {}): FixRequest {
  const firstLine = existsSync(join(workspace, 'value.txt')) ? readFileSync(join(workspace, 'value.txt'), 'utf8').split('\n')[0] : '';
  return {
    workspace,
    relativePath: 'value.txt',
    start: 0,
    end: firstLine.length,
    testCommand: 'sh check.sh',
    samples: candidates.length,
    
    // Generous: no test here waits for a run's time limit, and a loaded machine must not turn a pass into a timeout.
    testTimeoutMs: 300_000,
    totalTimeoutMs: 600_000,
    parallel: 2,
    baselineCheck: true,
    confirmRuns: 1,
    strengthCheck: 'off',
    isolation,
    provider: createFileProvider(candidates),
    ...overrides,
  };
}

const leftoverCopies = () => readdirSync(tempRoot).filter((name) => name !== 'owner.json');

describe('runFix', () => {
  for (const git of [true, false]) {
    it(`verifies candidates and leaves the ${git ? 'git' : 'plain'} workspace byte-identical`, async () => {
      const ws = valueWorkspace(git, { 'ignored/big.bin': 'x'.repeat(1000) });
      const before = fingerprint(ws);
      const result = await runFix(request(ws, ['bad', 'good', 'worse']));
      assert.deepEqual(fingerprint(ws), before);
      assert.equal(result.baseline?.status, 'fail');
      assert.deepEqual(result.candidates.map((c) => c.verdict.status), ['fail', 'pass', 'fail']);
      assert.deepEqual(result.verified, [1]);
      assert.equal(result.samples, 3);
      assert.equal(result.passed, 1);
      assert.match(result.candidates[1].diff, /-old\n\+good/);
      assert.deepEqual(leftoverCopies(), []);
      remove(ws);
    });
  }

  it('copies (reuse and copy isolation) hold untracked work but not ignored files, and link node_modules as a folder of links', async () => {
    const ws = valueWorkspace(true, { 'node_modules/dep/index.js': 'module.exports = 1;\n', 'ignored/secret.txt': 'no\n' });
    writeFileSync(join(ws, 'untracked.txt'), 'fresh\n');
    const check = [
      'test -f untracked.txt',
      '! test -e ignored/secret.txt',
      'test -d node_modules && ! test -L node_modules',
      'test -L node_modules/dep',
      'grep -q "module.exports = 1" node_modules/dep/index.js',
      'mkdir node_modules/.cache-written-by-tests',
      'test "$(cat value.txt)" = good',
    ].join(' && ');
    for (const mode of ['reuse', 'copy'] as const) {
      const result = await runFix(request(ws, ['good'], { testCommand: check, baselineCheck: false, isolation: { ...isolation, mode } }));
      assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
      assert.ok(!existsSync(join(ws, 'node_modules', '.cache-written-by-tests')), 'writes into node_modules stay in the copy');
    }
    remove(ws);
  });

  it('keeps a dependency folder that links outside the workspace visible, even under a private /tmp', async () => {
    const store = makeWorkspace({ 'dep/index.txt': 'from the store\n' });
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'grep -q "from the store" node_modules/dep/index.txt && test "$(cat value.txt)" = good\n' }, { git: true });
    symlinkSync(store, join(ws, 'node_modules'));
    const result = await runFix(request(ws, ['good'], { baselineCheck: false }));
    assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
    // The same with a real node_modules whose entry links into the store.
    const perEntry = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'grep -q "from the store" node_modules/dep/index.txt && test "$(cat value.txt)" = good\n' }, { git: true });
    mkdirSync(join(perEntry, 'node_modules'));
    symlinkSync(join(store, 'dep'), join(perEntry, 'node_modules', 'dep'));
    const again = await runFix(request(perEntry, ['good'], { baselineCheck: false }));
    assert.equal(again.candidates[0].verdict.status, 'pass', again.candidates[0].verdict.output);
    remove(ws, perEntry, store);
  });

  it('redirects monorepo links inside node_modules to the copy', async () => {
    const ws = makeWorkspace({ 'packages/lib/index.txt': 'old\n', 'check.sh': 'test "$(cat node_modules/lib/index.txt)" = good\n' }, { git: true });
    mkdirSync(join(ws, 'node_modules'));
    symlinkSync('../packages/lib', join(ws, 'node_modules', 'lib'));
    const result = await runFix(request(ws, ['good'], { relativePath: 'packages/lib/index.txt', end: 3, baselineCheck: false }));
    assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
    remove(ws);
  });

  it('tests the unsaved editor text, not the file on disk', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'grep -q "^unsaved$" value.txt && grep -q "^good$" value.txt\n' });
    const result = await runFix(request(ws, ['good'], { unsavedText: 'old\nunsaved\n' }));
    assert.equal(result.baseline?.status, 'fail');
    assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
    assert.equal(result.originalText, 'old\nunsaved\n');
    remove(ws);
  });

  it('ranks verified candidates by lines, then characters changed, then provider order', async () => {
    const ws = makeWorkspace({ 'value.txt': 'good\n', 'check.sh': 'grep -q good value.txt\n' });
    const result = await runFix(request(ws, ['more\nlines\nthan\ngood', 'goodness', 'good!', 'good?'], { baselineCheck: false }));
    assert.deepEqual(result.verified, [2, 3, 1, 0]);
    remove(ws);
  });

  it('runs duplicates once and counts each as a sample', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'cat /proc/sys/kernel/random/uuid; test "$(cat value.txt)" = good\n' });
    const result = await runFix(request(ws, ['good', 'good  ', 'bad', 'good\r\n', '  good'], { baselineCheck: false }));
    assert.equal(result.samples, 5);
    assert.equal(result.passed, 3);
    // Indentation is not whitespace noise (Python): '  good' is a program of its own.
    assert.deepEqual(result.candidates.map((c) => c.duplicateOf), [null, 0, null, 0, null]);
    const ids = new Set(result.candidates.map((c) => c.verdict.output));
    assert.equal(ids.size, 3, 'three distinct runs (each prints a fresh uuid)');
    assert.deepEqual(result.verified, [0], 'duplicates are not offered twice');
    remove(ws);
  });

  it('asks the fallback provider only when no first-phase candidate is verified', async () => {
    const ws = valueWorkspace(false);
    const events: string[] = [];
    const onEvent = (e: FixEvent) => e.type === 'fallback' && events.push(e.provider);
    const fallback = { ...createFileProvider(['good', 'bad']), name: 'model' };
    const rescued = await runFix(request(ws, ['bad', 'worse'], { fallbackProvider: fallback, baselineCheck: false }), onEvent);
    assert.deepEqual(events, ['model']);
    assert.deepEqual(rescued.candidates.map((c) => c.replacement), ['bad', 'worse', 'good', 'bad']);
    assert.equal(rescued.candidates[3].duplicateOf, 0);
    assert.deepEqual(rescued.verified, [2]);
    assert.equal(rescued.samples, 4);
    const notNeeded = await runFix(request(ws, ['good'], { fallbackProvider: fallback, baselineCheck: false }), onEvent);
    assert.deepEqual(events, ['model'], 'not asked when the first phase verified a fix');
    assert.equal(notNeeded.samples, 1);
    remove(ws);
  });

  it('hands the request to the fallback when the first provider cannot serve it', async () => {
    const ws = valueWorkspace(false);
    const unsupported = {
      name: 'mutation',
      async *generate(): AsyncGenerator<never> {
        throw new UserError("no parser for 'ruby'");
      },
    };
    const warnings: string[] = [];
    const result = await runFix(request(ws, [], { provider: unsupported, fallbackProvider: createFileProvider(['good']), samples: 1, baselineCheck: false }), (e) => {
      if (e.type === 'warning') warnings.push(e.message);
    });
    assert.deepEqual(result.verified, [0]);
    assert.match(warnings.join('\n'), /mutation: no parser for 'ruby'/);
    await assert.rejects(runFix(request(ws, [], { provider: unsupported, samples: 1, baselineCheck: false })), /no parser for 'ruby'/);
    remove(ws);
  });

  it('streams verdicts in completion order', async () => {
    const ws = makeWorkspace({ 'value.txt': '0\n', 'check.sh': 'sleep "$(cat value.txt)"\n' });
    const order: number[] = [];
    const onEvent = (e: FixEvent) => e.type === 'verdict' && order.push(e.candidate.index);
    await runFix(request(ws, ['1.5', '0.1', '0.7'], { parallel: 3, baselineCheck: false }), onEvent);
    assert.deepEqual(order, [1, 2, 0]);
    remove(ws);
  });

  it('flags the baseline passing, and flaky candidates are not verified', async () => {
    // Each run has a fresh copy, so the flakiness comes from the clock: about half the runs pass.
    const ws = makeWorkspace({ 'value.txt': 'x\n', 'check.sh': 'test "$(cat value.txt)" = x || test $(( $(date +%N) % 2 )) = 0\n' });
    const result = await runFix(request(ws, ['y'], { confirmRuns: 6 }));
    assert.equal(result.baselinePassed, true);
    const c = result.candidates[0];
    if (c.verdict.status === 'pass') {
      assert.equal(c.verified, c.runs.every((r) => r.status === 'pass'));
      assert.equal(c.flaky, !c.verified);
      // Six runs, and one more after a failed confirmation before the candidate is called flaky.
      assert.ok(c.runs.length <= 7, `${c.runs.length} runs`);
    } else {
      assert.equal(c.runs.length, 1, 'a failed first run is not repeated');
    }
    remove(ws);
  });

  it('keeps a run from rewriting the tests to pass: read-only in a namespace, reported by the hash check elsewhere', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'tests/check.sh': 'test "$(cat value.txt)" = good\n' });
    const cheat = 'echo "exit 0" > tests/check.sh';
    for (const backend of ['auto', 'process-group'] as const) {
      const result = await runFix(request(ws, ['good', cheat], { testCommand: 'sh value.txt; sh tests/check.sh', baselineCheck: false, isolation: { ...isolation, backend, allowProcessGroupAsRoot: true } }));
      assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
      const cheated = result.candidates[1].verdict;
      if (backend === 'process-group' || (await detectSandbox()).kind === 'process-group') {
        assert.equal(cheated.status, 'error');
        assert.match(cheated.reason ?? '', /modified test files: tests\/check\.sh/);
      } else {
        assert.equal(cheated.status, 'fail', 'the write was refused, so the real test ran and failed');
        assert.match(cheated.output, /Read-only file system/);
      }
    }
    remove(ws);
  });

  it('cancel ends generation, every process and every copy at once', async () => {
    const marker = newMarker();
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'hostile.sh': runnerFixture('hostile.sh') });
    const controller = new AbortController();
    const events: string[] = [];
    const hostile = `sh hostile.sh ${marker}`;
    setTimeout(() => controller.abort(), 1500);
    try {
      const t0 = Date.now();
      const result = await runFix(request(ws, ['a', 'b', 'c', 'd', 'e'], { testCommand: hostile, signal: controller.signal, parallel: 2 }), (e) => events.push(e.type));
      // The hostile runs never end by themselves: the cancel ended the request.
      assert.ok(Date.now() - t0 < 60_000);
      assert.equal(result.stoppedEarly?.kind, 'cancelled');
      assert.equal(result.samples, 0, 'runs that were cut short are not samples');
      assert.deepEqual(await waitForNoSurvivors(marker), []);
      assert.deepEqual(leftoverCopies(), []);
      assert.equal(events.at(-1), 'done');
    } finally {
      killMarked(marker);
      remove(ws);
    }
  });

  it('the total timeout reports what finished', async () => {
    const ws = makeWorkspace({ 'value.txt': '0\n', 'check.sh': 'sleep "$(cat value.txt)"\n' });
    const result = await runFix(request(ws, ['0.1', '30', '30'], { totalTimeoutMs: 2500, parallel: 3, baselineCheck: false }));
    assert.equal(result.stoppedEarly?.kind, 'totalTimeout');
    assert.match(result.stoppedEarly?.message ?? '', /total timeout/);
    assert.deepEqual(result.candidates.map((c) => c.index), [0]);
    assert.deepEqual(leftoverCopies(), []);
    remove(ws);
  });

  const bad: Array<[string, (ws: string) => Partial<FixRequest>, RegExp]> = [
    ['a missing workspace', () => ({ workspace: join(tempRoot, 'nope') }), /workspace folder not found/],
    ['a file outside the workspace', () => ({ relativePath: '../etc/passwd' }), /not inside the workspace/],
    ['a missing file', () => ({ relativePath: 'missing.txt' }), /file not found: missing\.txt/],
    ['a selection past the end', () => ({ start: 0, end: 999 }), /outside value\.txt/],
    ['no test command to detect', () => ({ testCommand: undefined }), /No test command found/],
  ];
  for (const [name, change, message] of bad) {
    it(`rejects ${name} before running anything`, async () => {
      const ws = valueWorkspace(false);
      await assert.rejects(runFix(request(ws, ['good'], change(ws))), message);
      remove(ws);
    });
  }

  it('refuses a file that is not UTF-8', async () => {
    const ws = valueWorkspace(false);
    writeFileSync(join(ws, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await assert.rejects(runFix(request(ws, ['good'], { relativePath: 'latin1.txt' })), /latin1\.txt is not UTF-8/);
    remove(ws);
  });
});
