// The test runner against real hostile processes: every containment kind settles; namespaces leave no survivor.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import type { SandboxBackend } from '../../../src/core/sandbox/backend';
import { detectSandbox, sandboxOfKind } from '../../../src/core/sandbox/detect';
import { OUTPUT_TAIL_BYTES, runTestCommand } from '../../../src/core/sandbox/runCommand';
import { runnerFixture } from '../../unit/helpers/paths';
import { killMarked, newMarker, waitForNoSurvivors } from '../../unit/helpers/processes';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';
import { LOCAL_BACKENDS } from '../../../src/core/contract/choices';

const scripts = ['hostile.sh', 'daemon.sh', 'flood.sh', 'network.js'];
const cwd = makeWorkspace(Object.fromEntries(scripts.map((name) => [name, runnerFixture(name)])));
after(() => remove(cwd));

async function kinds(): Promise<SandboxBackend[]> {
  const all = await Promise.all(LOCAL_BACKENDS.map((kind) => sandboxOfKind(kind)));
  return all.filter((b): b is SandboxBackend => b !== undefined);
}

const run = (backend: SandboxBackend, command: string, timeoutMs = 10_000, signal?: AbortSignal) =>
  runTestCommand({ command, cwd, timeoutMs, backend, allowNetwork: false, memoryMB: 0, ...(signal ? { signal } : {}) });

describe('runTestCommand', async () => {
  for (const caps of await kinds()) {
    const kind = caps.kind;
    describe(`under ${kind}`, () => {
      it('passes on exit 0 and fails on non-zero, with output', async () => {
        const pass = await run(caps, 'echo hello; echo oops >&2');
        assert.equal(pass.status, 'pass');
        assert.match(pass.stdout, /hello/);
        assert.match(pass.stderr, /oops/);
        const fail = await run(caps, 'echo broken; exit 4');
        assert.equal(fail.status, 'fail');
        assert.equal(fail.exitCode, 4);
      });

      it('leaves no timer behind once it has settled (a pending one held the CLI open after its last run)', async () => {
        const timers = () => process.getActiveResourcesInfo().filter((what) => what === 'Timeout').length;
        const before = timers();
        assert.equal((await run(caps, 'echo quick')).status, 'pass');
        assert.equal(timers(), before);
      });

      it('says when its process has started, before it settles (a local provider waits for the baseline\'s)', async () => {
        const events: string[] = [];
        const settled = runTestCommand({ command: 'echo started', cwd, timeoutMs: 10_000, backend: caps, allowNetwork: false, memoryMB: 0, onStarted: () => events.push('started') });
        const verdict = await settled;
        events.push('settled');
        assert.equal(verdict.status, 'pass');
        assert.deepEqual(events, ['started', 'settled']);
      });

      it('ends with an error, not a wait without end, when the system refuses to start the run (an argument over 128 KiB)', async () => {
        const verdict = await run(caps, `true ${'#'.repeat(200_000)}`, 5_000);
        assert.equal(verdict.status, 'error');
        assert.equal(verdict.cause, 'startFailed');
        assert.match(verdict.reason ?? '', /E2BIG/);
      });

      it('reports a command that does not exist as an error', async () => {
        const verdict = await run(caps, 'definitely-not-a-command-vf --flag');
        assert.equal(verdict.status, 'error');
        assert.match(verdict.reason ?? '', /command not found/);
      });

      it('times out a hostile 9-process tree and the promise settles', async () => {
        const marker = newMarker();
        try {
          const t0 = Date.now();
          const verdict = await run(caps, `sh hostile.sh ${marker}`, 1500);
          assert.equal(verdict.status, 'timeout');
          // The tree would run for ever: settling at all, well within the test's own limit, is the point.
          assert.ok(Date.now() - t0 < 60_000, 'the run settled after its timeout');
          const survivors = await waitForNoSurvivors(marker);
          if (kind === 'process-group') {
            // Without a PID namespace a double-forked setsid orphan can escape; the namespaces must not leak.
            assert.ok(survivors.length <= 2, `survivors: ${survivors.join(' ')}`);
          } else {
            assert.deepEqual(survivors, [], 'no process survives');
          }
        } finally {
          killMarked(marker);
        }
      });

      it('cancel ends the run at once', async () => {
        const marker = newMarker();
        try {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), 400);
          const verdict = await run(caps, `sh hostile.sh ${marker}`, 60_000, controller.signal);
          assert.equal(verdict.status, 'error');
          assert.equal(verdict.cancelled, true);
          if (kind !== 'process-group') assert.deepEqual(await waitForNoSurvivors(marker), []);
        } finally {
          killMarked(marker);
        }
      });

      it(kind === 'process-group' ? 'leaves the network alone (nothing to isolate with)' : 'cuts the network but keeps loopback inside the run', async () => {
        const server = createServer((socket) => socket.destroy());
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const port = (server.address() as AddressInfo).port;
          const verdict = await run(caps, `node network.js ${port}`);
          assert.equal(verdict.status, 'pass', verdict.output);
          assert.match(verdict.stdout, kind === 'process-group' ? /inner:ok outer:ok/ : /inner:ok outer:fail/);
        } finally {
          server.close();
        }
      });

      it('settles when the main process exits before a daemon holding stdout', async () => {
        const marker = newMarker();
        try {
          const verdict = await run(caps, `sh daemon.sh ${marker}`);
          assert.equal(verdict.status, 'pass');
          assert.match(verdict.stdout, /started daemon/);
          if (kind !== 'process-group') assert.deepEqual(await waitForNoSurvivors(marker), []);
        } finally {
          killMarked(marker);
        }
      });
    });
  }

  it('keeps only the last 64 KiB of a flood', async () => {
    const verdict = await run(await detectSandbox(), `sh flood.sh 64`, 60_000);
    assert.equal(verdict.status, 'fail');
    assert.ok(verdict.stdout.length <= OUTPUT_TAIL_BYTES + 100, `stdout tail ${verdict.stdout.length}`);
    assert.ok((verdict.droppedBytes ?? 0) > 0, 'how much was dropped is a number, not a marker in the text');
    assert.match(verdict.stderr, /flood ends/);
  });
});
