// Bad input and faults in the engine: each gets a clear message or verdict, and nothing is lost or left behind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixEvent, FixRequest } from '../../../src/core/contract/fixRequest';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { MAX_SELECTION_LINES } from '../../../src/core/request/checkRequest';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => remove(tempRoot));

function request(workspace: string, overrides: Partial<FixRequest> = {}): FixRequest {
  return {
    workspace, relativePath: 'value.txt', start: 0, end: 3, testCommand: 'test "$(cat value.txt)" = new',
    // Generous limits: no test here waits for one; a hang shows as a timeout verdict, which fails the test as well.
    samples: 2, testTimeoutMs: 300_000, totalTimeoutMs: 600_000, parallel: 2, baselineCheck: true, confirmRuns: 1, strengthCheck: 'off',
    isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
    provider: createFileProvider(['new', 'bad']),
    ...overrides,
  };
}

describe('faults', () => {
  it('a test command that needs a terminal fails instead of hanging', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n' });
    const result = await runFix(request(ws, { testCommand: 'read answer < /dev/tty && test "$(cat value.txt)" = new' }));
    assert.ok(result.candidates.every((c) => c.verdict.status === 'fail' || c.verdict.status === 'error'), JSON.stringify(result.candidates.map((c) => c.verdict)));
    remove(ws);
  });

  it('refuses a huge selection with a message', async () => {
    const ws = makeWorkspace({ 'value.txt': 'x\n'.repeat(MAX_SELECTION_LINES + 10) });
    await assert.rejects(runFix(request(ws, { end: 2 * (MAX_SELECTION_LINES + 5) })), /the selection spans \d+ lines; select at most 2000/);
    remove(ws);
  });

  it('warns when the selection is in a test file', async () => {
    const ws = makeWorkspace({ 'tests/value.test.js': 'old\n' });
    const warnings: string[] = [];
    const onEvent = (e: FixEvent) => e.type === 'warning' && warnings.push(e.message);
    await runFix(request(ws, { relativePath: 'tests/value.test.js', testCommand: 'true', baselineCheck: false }), onEvent);
    assert.match(warnings.join('\n'), /looks like a test file/);
    remove(ws);
  });

  it('the workspace folder removed during the run: runs end with verdicts, no copy remains', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n' });
    const slow = createFileProvider(['new', 'bad', 'new2', 'bad2']);
    const provider = {
      name: 'slow',
      async *generate(req: Parameters<typeof slow.generate>[0]) {
        for await (const sample of slow.generate(req)) {
          yield sample;
          await new Promise((r) => setTimeout(r, 300));
          rmSync(ws, { recursive: true, force: true });
        }
      },
    };
    const result = await runFix(request(ws, { provider, samples: 4, testCommand: 'sleep 0.2; test "$(cat value.txt)" = new' }));
    assert.ok(result.candidates.length >= 1);
    assert.ok(result.candidates.slice(1).every((c) => c.verdict.status !== 'pass'), 'later copies could not be made');
    assert.ok(result.candidates.some((c) => /workspace folder was removed during the run/.test(c.verdict.reason ?? '')));
    assert.deepEqual(readdirSync(tempRoot), []);
  });

  it('a full disk in the temp root gives "no space left" verdicts and leaves the workspace alone', { skip: process.getuid?.() !== 0 && 'needs root to mount a small tmpfs' }, async () => {
    const small = join(tempRoot, '..', `vf-small-${process.pid}`);
    mkdirSync(small, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]);
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'big.bin': 'x'.repeat(200 * 1024) });
    const before = fingerprint(ws);
    process.env.VERIFIED_FIX_TMPDIR = small;
    try {
      // Copies fill the small temp root; an overlay copies nothing (its layers hold only what runs write).
      const asked = request(ws);
      const result = await runFix({ ...asked, isolation: { ...asked.isolation, mode: 'copy' } });
      assert.equal(result.baseline?.status, 'error');
      assert.match(result.baseline?.reason ?? '', /no space left in the temp folder/);
      assert.ok(result.candidates.every((c) => /no space left/.test(c.verdict.reason ?? '')));
      assert.deepEqual(fingerprint(ws), before);
      assert.deepEqual(readdirSync(small).filter((n) => n !== 'owner.json'), []);
    } finally {
      process.env.VERIFIED_FIX_TMPDIR = tempRoot;
      execFileSync('umount', [small]);
      remove(small, ws);
    }
  });
});
