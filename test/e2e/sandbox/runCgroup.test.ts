// Run cgroups on this machine's real hierarchy: the memory cap kills and is reported, kill and remove leave nothing.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { after, before, describe, it } from 'node:test';
import { detectCgroup, RUN_PIDS_LIMIT, RunCgroup } from '../../../src/core/sandbox/runCgroup';
import type { CgroupSupport } from '../../../src/core/sandbox/runCgroup';
import { killMarked, newMarker, processesWithMarker, waitForNoSurvivors } from '../../unit/helpers/processes';

const UNSUPPORTED = 'no cgroup with a memory controller this process may create children in (needs Linux: cgroup v1 as root, or v2 with memory delegated)';
const MiB = 1024 * 1024;
const marker = newMarker();
const groups: RunCgroup[] = [];
let support: CgroupSupport | undefined;
let python: string | undefined;

before(async () => {
  support = await detectCgroup();
  // The interpreter itself, not a version manager's shim: the shim's own processes would count against the cap.
  const found = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  python = found.status === 0 ? found.stdout.trim() : undefined;
});

after(async () => {
  await Promise.all(groups.map((group) => group.remove()));
  killMarked(marker);
});

/** Skips the test where the system gives no cgroup; otherwise the support found. */
function needSupport(t: TestContext): CgroupSupport | undefined {
  if (!support) t.skip(UNSUPPORTED);
  return support;
}

async function create(memoryBytes: number): Promise<RunCgroup> {
  const group = await RunCgroup.create(support as CgroupSupport, memoryBytes);
  assert.ok(group, 'RunCgroup.create refused although detectCgroup found support');
  groups.push(group);
  return group;
}

/** Runs argv with its first process joined to every cgroup in `procsFiles`, as the sandbox does; resolves on exit. */
function runIn(procsFiles: readonly string[], argv: readonly string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const join = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
  const child = spawn('sh', ['-c', join, 'cgroup-join', ...procsFiles, '--', ...argv], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Starts a daemon in its own session inside the cgroup and returns once the starter has exited. */
async function startDaemon(procsFiles: readonly string[], seconds: number): Promise<void> {
  const started = await runIn(procsFiles, ['sh', '-c', `setsid sleep ${seconds}.${marker} & exit 0`]);
  assert.equal(started.code, 0, 'joining the cgroup failed');
  // Until `sleep` itself carries the marker: the starter's forked shell and `setsid` carry it first, one after the
  // other, and a process in the middle of exec shows an empty command line, so a count alone can read 1 and then 0.
  const daemons = () => processesWithMarker(`${seconds}.${marker}`).filter((pid) => commandName(pid) === 'sleep');
  for (let i = 0; i < 500 && daemons().length !== 1; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(daemons().length, 1, 'the daemon did not start');
}

/** The executable name of a process (`/proc/<pid>/comm`), or undefined once it has ended. */
function commandName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

describe('detectCgroup', () => {
  it('reports a writable memory hierarchy with its version, or nothing', async (t) => {
    const found = needSupport(t);
    if (!found) return;
    assert.ok(found.version === 1 || found.version === 2);
    assert.ok(existsSync(found.memoryParent), found.memoryParent);
    assert.ok(existsSync(join(found.memoryParent, 'cgroup.procs')));
    if (found.pidsParent !== undefined) assert.equal(found.version, 1);
  });

  it('sweeps run cgroups of dead owners, killing what still runs in them, and keeps those of live owners', async (t) => {
    const found = needSupport(t);
    if (!found) return;
    const dead = Number(spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim());
    const parents = [found.memoryParent, ...(found.pidsParent ? [found.pidsParent] : [])];
    const leftover = parents.map((parent) => join(parent, `vf-${dead}-1`));
    const liveOwner = parents.map((parent) => join(parent, 'vf-1-1'));
    const ours = parents.map((parent) => join(parent, `vf-${process.pid}-999999`));
    for (const dir of [...leftover, ...liveOwner, ...ours]) mkdirSync(dir);
    try {
      await startDaemon(
        leftover.map((dir) => join(dir, 'cgroup.procs')),
        301,
      );
      const again = await detectCgroup();
      assert.ok(again);
      for (const dir of leftover) assert.ok(!existsSync(dir), `${dir} was not swept`);
      assert.deepEqual(await waitForNoSurvivors(`301.${marker}`), [], 'the process left in the swept cgroup still runs');
      for (const dir of [...liveOwner, ...ours]) assert.ok(existsSync(dir), `${dir} was swept although its owner lives`);
    } finally {
      killMarked(`301.${marker}`);
      for (const dir of [...leftover, ...liveOwner, ...ours]) {
        try {
          rmdirSync(dir);
        } catch {
          // swept, as it should be
        }
      }
    }
  });
});

describe('RunCgroup', () => {
  it('sets the memory cap and, on v1, the pids limit', async (t) => {
    const found = needSupport(t);
    if (!found) return;
    const group = await create(64 * MiB);
    const [memoryDir, pidsDir] = group.procsFiles.map((file) => dirname(file));
    if (found.version === 1) {
      assert.equal(Number(readFileSync(join(memoryDir, 'memory.limit_in_bytes'), 'utf8')), 64 * MiB);
      if (found.pidsParent) assert.equal(Number(readFileSync(join(pidsDir, 'pids.max'), 'utf8')), RUN_PIDS_LIMIT);
      assert.equal(group.procsFiles.length, found.pidsParent ? 2 : 1);
    } else {
      assert.equal(Number(readFileSync(join(memoryDir, 'memory.max'), 'utf8')), 64 * MiB);
      assert.equal(group.procsFiles.length, 1);
    }
  });

  it('a run over the cap is killed by the OOM killer and oomKilled() says so', async (t) => {
    if (!needSupport(t)) return;
    if (!python) return t.skip('needs python3');
    const group = await create(64 * MiB);
    const result = await runIn(group.procsFiles, [python, '-c', 'b = bytearray(256 * 1024 * 1024)']);
    assert.equal(result.signal, 'SIGKILL', JSON.stringify(result));
    assert.equal(await group.oomKilled(), true);
  });

  it('a run under the cap ends normally and oomKilled() is false', async (t) => {
    if (!needSupport(t)) return;
    if (!python) return t.skip('needs python3');
    const group = await create(64 * MiB);
    const result = await runIn(group.procsFiles, [python, '-c', 'b = bytearray(8 * 1024 * 1024)']);
    assert.deepEqual(result, { code: 0, signal: null });
    assert.equal(await group.oomKilled(), false);
  });

  it('killAll() ends a daemon that left the run’s session, and keeps the cgroup', async (t) => {
    if (!needSupport(t)) return;
    const group = await create(256 * MiB);
    await startDaemon(group.procsFiles, 302);
    await group.killAll();
    assert.deepEqual(await waitForNoSurvivors(`302.${marker}`), []);
    for (const file of group.procsFiles) assert.ok(existsSync(file));
  });

  it('remove() kills what is left and leaves no folder', async (t) => {
    if (!needSupport(t)) return;
    const group = await create(256 * MiB);
    await startDaemon(group.procsFiles, 303);
    await group.remove();
    assert.deepEqual(await waitForNoSurvivors(`303.${marker}`), []);
    for (const file of group.procsFiles) assert.ok(!existsSync(dirname(file)), `${dirname(file)} is still there`);
    await group.remove(); // twice is harmless
  });

  it('each run gets its own cgroup named for this process', async (t) => {
    if (!needSupport(t)) return;
    const [a, b] = [await create(0), await create(0)];
    const name = (group: RunCgroup) => dirname(group.procsFiles[0]).split('/').pop() as string;
    assert.match(name(a), new RegExp(`^vf-${process.pid}-\\d+$`));
    assert.notEqual(name(a), name(b));
  });
});
