// A limit derived from the baseline counts time the run could run: a CPU-bound run kept waiting by other processes on
// its CPU passes where the wall clock would time it out, while a run that sleeps, or loops, still ends at its limit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { after, describe, it } from 'node:test';
import type { SandboxBackend } from '../../../src/core/sandbox/backend';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import { runTestCommand } from '../../../src/core/sandbox/runCommand';
import { LOCAL_BACKENDS } from '../../../src/core/contract/choices';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

// A fixed amount of work; it prints the CPU time it used.
const WORK = 'let x = 0; for (let i = 0; i < 3e8; i++) x += i % 7; const u = process.cpuUsage(); console.log(JSON.stringify({ cpuMs: (u.user + u.system) / 1000, x }));';
const cwd = makeWorkspace({ 'work.js': WORK, 'loop.js': 'for (;;) {}', 'sleep.js': 'setTimeout(() => {}, 600000);' });
after(() => remove(cwd));

/** The run is pinned to CPU 0, where the busy processes below leave it a seventeenth of the CPU. */
const starved = (script: string) => `taskset -c 0 node ${script}`;
/** A safety cap far above anything the runs below need: only a broken deadline would reach it. */
const CAP_MS = 600_000;

const hogs: ChildProcess[] = [];
/**
 * Sixteen busy processes on CPU 0, each in a session of its own: the scheduler shares a CPU between sessions (autogroups)
 * before it looks at nice values, so only sessions of their own take the run's share, whatever the machine's load.
 */
function startHogs(): void {
  for (let i = 0; i < 16; i++) hogs.push(spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore', detached: true }));
}
after(() => hogs.forEach((hog) => hog.kill('SIGKILL')));

const run = (backend: SandboxBackend, command: string, timeoutMs: number, waitingExtendsUpToMs?: number) =>
  runTestCommand({ command, cwd, timeoutMs, ...(waitingExtendsUpToMs ? { waitingExtendsUpToMs } : {}), backend, allowNetwork: false, memoryMB: 0 });

describe('time limits that do not count waiting for a CPU', { concurrency: 1 }, async () => {
  const backends = (await Promise.all(LOCAL_BACKENDS.map((kind) => sandboxOfKind(kind)))).filter((b): b is SandboxBackend => b !== undefined);
  // The CPU time the work needs, measured before any hog runs: the limit is eight times that (the sandbox's setup and
  // node's start-up are not in it, and a busy sibling hyperthread slows the run without making it wait: at four times,
  // a CI run under the e2e suite's own load used 1.5 s running for 0.4 s of work), still half the wall time the hogs cause.
  let limitMs = 0;

  it('measures the work alone', async () => {
    const alone = await run(backends[0], starved('work.js'), CAP_MS);
    assert.equal(alone.status, 'pass', alone.output);
    limitMs = Math.ceil(8 * JSON.parse(alone.stdout).cpuMs);
    startHogs();
  });

  for (const backend of backends) {
    describe(`under ${backend.kind}`, () => {
      it('passes a run that needed less CPU than its limit but waited past it, and says so in the wall-clock control', async () => {
        const counted = await run(backend, starved('work.js'), limitMs, CAP_MS);
        assert.equal(counted.status, 'pass', counted.reason);
        assert.ok(counted.durationMs > limitMs, `the run waited for a CPU (${counted.durationMs} ms wall, limit ${limitMs} ms)`);
        const wall = await run(backend, starved('work.js'), limitMs);
        assert.equal(wall.status, 'timeout', 'without the option the same run times out on the wall clock');
      });

      it('still ends a run that sleeps, and one that loops, at their limit rather than the cap', async () => {
        for (const script of ['sleep.js', 'loop.js']) {
          const verdict = await run(backend, starved(script), Math.ceil(limitMs / 8), CAP_MS);
          assert.equal(verdict.status, 'timeout', script);
          assert.ok(verdict.durationMs < CAP_MS / 4, `${script} ended after ${verdict.durationMs} ms`);
        }
      });
    });
  }
});
