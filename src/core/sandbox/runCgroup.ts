// A control group per test run, where the system lets us make one: caps the run's memory as a whole (shared
// mappings and in-memory /tmp files included), bounds its process count, and finds every process it left behind.
import { readFile, readdir, rmdir, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from '../base/processAlive';

/** Where this process may create child cgroups, per controller. */
export interface CgroupSupport {
  readonly version: 1 | 2;
  /** The folder under which run cgroups with a memory limit are made. */
  readonly memoryParent: string;
  /** cgroup v1 keeps pids in its own hierarchy; undefined on v2 (same folder) or where it is not writable. */
  readonly pidsParent?: string;
}

/** Processes (threads included) one run may have at once: far above any test suite, far below a fork bomb's reach. */
export const RUN_PIDS_LIMIT = 4096;

const CGROUP_ROOT = '/sys/fs/cgroup';
let runCounter = 0;

/** The cgroup path of this process for a v1 controller, or for v2 when `controller` is ''. */
async function ownPath(controller: string): Promise<string | undefined> {
  const text = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined) continue;
    if (controller === '' ? controllers === '' && line.startsWith('0::') : controllers.split(',').includes(controller)) return path;
  }
  return undefined;
}

async function canMakeChild(parent: string, limitFile: string): Promise<boolean> {
  const probe = join(parent, `vf-probe-${process.pid}`);
  try {
    await mkdir(probe);
  } catch {
    return false;
  }
  try {
    await readFile(join(probe, limitFile));
    return true;
  } catch {
    return false;
  } finally {
    await rmdir(probe).catch(() => undefined);
  }
}

/** Finds a writable cgroup hierarchy with a memory controller (v1, or v2 with memory delegated); undefined if none. */
export async function detectCgroup(): Promise<CgroupSupport | undefined> {
  if (process.platform !== 'linux') return undefined;
  const v1Memory = await ownPath('memory');
  if (v1Memory !== undefined) {
    const memoryParent = join(CGROUP_ROOT, 'memory', v1Memory);
    if (!(await canMakeChild(memoryParent, 'memory.limit_in_bytes'))) return undefined;
    const v1Pids = await ownPath('pids');
    const pidsParent = v1Pids === undefined ? undefined : join(CGROUP_ROOT, 'pids', v1Pids);
    const pids = pidsParent !== undefined && (await canMakeChild(pidsParent, 'pids.max'));
    await sweepCgroups([memoryParent, ...(pids && pidsParent ? [pidsParent] : [])]);
    return { version: 1, memoryParent, ...(pids ? { pidsParent } : {}) };
  }
  const v2 = await ownPath('');
  if (v2 === undefined) return undefined;
  const memoryParent = join(CGROUP_ROOT, v2);
  if (!(await canMakeChild(memoryParent, 'memory.max'))) return undefined;
  await sweepCgroups([memoryParent]);
  return { version: 2, memoryParent };
}

async function killAndRemove(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pids = (await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((resolve) => setTimeout(resolve, 25 * (attempt + 1)));
    }
  }
}

/** Removes run cgroups left by processes that died (a crash, a killed window), killing what still runs in them. */
async function sweepCgroups(parents: readonly string[]): Promise<void> {
  for (const parent of parents) {
    const names = await readdir(parent).catch(() => [] as string[]);
    for (const name of names) {
      const owner = /^vf-(\d+)-\d+$/.exec(name);
      if (owner && Number(owner[1]) !== process.pid && !isAlive(Number(owner[1]))) await killAndRemove(join(parent, name));
    }
  }
}

/** One run's cgroup(s). The run's first process joins by writing its PID into every `procsFiles` entry. */
export class RunCgroup {
  private constructor(
    private readonly support: CgroupSupport,
    private readonly dirs: readonly string[],
  ) {}

  /** Creates the cgroup with the limits; undefined when the system refuses (the run then goes without). */
  static async create(support: CgroupSupport, memoryBytes: number): Promise<RunCgroup | undefined> {
    const name = `vf-${process.pid}-${++runCounter}`;
    const memoryDir = join(support.memoryParent, name);
    const made: string[] = [];
    try {
      await mkdir(memoryDir);
      made.push(memoryDir);
      if (support.version === 1) {
        if (memoryBytes > 0) {
          await writeFile(join(memoryDir, 'memory.limit_in_bytes'), String(memoryBytes));
          // Swap would let the run outgrow the cap; not every kernel has the memsw files.
          await writeFile(join(memoryDir, 'memory.memsw.limit_in_bytes'), String(memoryBytes)).catch(() => undefined);
        }
        if (support.pidsParent) {
          const pidsDir = join(support.pidsParent, name);
          await mkdir(pidsDir);
          made.push(pidsDir);
          await writeFile(join(pidsDir, 'pids.max'), String(RUN_PIDS_LIMIT));
        }
      } else {
        if (memoryBytes > 0) {
          await writeFile(join(memoryDir, 'memory.max'), String(memoryBytes));
          await writeFile(join(memoryDir, 'memory.swap.max'), '0').catch(() => undefined);
        }
        await writeFile(join(memoryDir, 'pids.max'), String(RUN_PIDS_LIMIT)).catch(() => undefined);
      }
      return new RunCgroup(support, made);
    } catch {
      await Promise.all(made.map((dir) => rmdir(dir).catch(() => undefined)));
      return undefined;
    }
  }

  get procsFiles(): string[] {
    return this.dirs.map((dir) => join(dir, 'cgroup.procs'));
  }

  /** Whether the kernel's OOM killer ended a process of this run for going over the cap. */
  async oomKilled(): Promise<boolean> {
    const file = this.support.version === 1 ? 'memory.oom_control' : 'memory.events';
    const text = await readFile(join(this.dirs[0], file), 'utf8').catch(() => '');
    const match = /^oom_kill (\d+)$/m.exec(text);
    return match !== null && Number(match[1]) > 0;
  }

  /** SIGKILLs every process still in the run (setsid daemons included) without removing the cgroup. */
  async killAll(): Promise<void> {
    const pids = (await readFile(join(this.dirs[0], 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Kills what is left and removes the cgroup(s). */
  async remove(): Promise<void> {
    await Promise.all(this.dirs.map((dir) => killAndRemove(dir)));
  }
}
