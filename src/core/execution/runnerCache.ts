// Jest's cache carried from the baseline into the request's later runs. Each run has a /tmp of its own, where jest's
// default cacheDirectory started empty: every run transformed every file again (babel, ts-jest), while on the user's
// machine the second run finds them cached. The cache is keyed by each file's content and the project's config: an
// overlay shows the workspace at its own path in every run, and the engine's files show at RUN_OUTPUT_FOLDER, so the
// baseline's entries serve every later run.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { copyTree } from '../base/copyTree';
import { walkTree } from '../isolation/treeChanges';
import type { Logger } from '../base/logger';
import type { TempBind } from '../sandbox/backend';
import type { WarmStore } from './warmStart';

/**
 * Where a run with a private /tmp sees its output folder (the engine's hooks, reporters and guard): the same path in
 * every run, so that a config naming them is the same config, and jest's cache keys (which hash it) match.
 */
export const RUN_OUTPUT_FOLDER = '/tmp/.verified-fix-run';

/** A baseline's cache above this size is not copied into each run: the copies would cost more than they save. */
export const RUNNER_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** jest-config's default cacheDirectory for a process of user `uid` whose temp folder is /tmp. */
export function jestCacheFolder(uid: number): string {
  return `/tmp/jest_${uid.toString(36)}`;
}

/** Bytes and files under `dir` (links counted, not followed). */
async function sizeOf(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  await walkTree(dir, (_rel, stats) => {
    if (stats.isDirectory()) return;
    files += 1;
    bytes += Number(stats.size);
  });
  return { bytes, files };
}

/**
 * The request's runner cache: one folder per run, bound at jest's cache path in the run's private /tmp. The baseline's
 * (the unmodified code's run) is kept; each run that starts after it gets a copy of it, its own, which it may change
 * freely: no run writes where another reads, so a candidate cannot plant a transformed file for the next.
 */
export class RunnerCache {
  /** The baseline's folder, once it is in and worth copying. */
  private seed?: string;
  /** Whether the log has said that the runs before the baseline's start from the last request's cache. */
  private warmSaid = false;

  constructor(
    private readonly requestDir: string,
    private readonly target: string,
    private readonly logger: Logger,
    private readonly warm?: WarmStore,
    private readonly maxBytes = RUNNER_CACHE_MAX_BYTES,
  ) {}

  /**
   * A folder of the run's own for `label`'s run: a copy of the baseline's cache; before it is in, of the cache the
   * last request's baseline on this workspace left, else empty.
   */
  async bindFor(label: string): Promise<TempBind> {
    const source = join(this.requestDir, `${label}-cache-${randomBytes(8).toString('hex')}`);
    if (this.seed) {
      if (await copyTree(this.seed, source)) return { source, target: this.target };
      // A copy that failed (a full disk) costs the run its warm start, never the run.
      await rm(source, { recursive: true, force: true });
    } else if (this.warm && (await this.warm.copyOut('jest', source))) {
      if (!this.warmSaid) this.logger.info(`jest's cache: the baseline, and a run beside it, start from the one the last request's baseline on this workspace left (kept in ${this.warm.location})`);
      this.warmSaid = true;
      return { source, target: this.target };
    }
    await mkdir(source, { mode: 0o700 });
    return { source, target: this.target };
  }

  /**
   * After the baseline's run: its folder is what each later run starts from, unless it is empty or too large, and
   * what the next request's runs start from before their baseline is in.
   */
  async keep(folder: string): Promise<boolean> {
    const { bytes, files } = await sizeOf(folder).catch(() => ({ bytes: 0, files: 0 }));
    if (files === 0) return false;
    const size = `${(bytes / 1024 / 1024).toFixed(1)} MB, ${files} file${files === 1 ? '' : 's'}`;
    if (bytes > this.maxBytes) {
      this.logger.info(`jest's cache: the baseline's (${size}) is over the ${(this.maxBytes / 1024 / 1024).toFixed(0)} MB copied into each run, so each run starts with an empty one`);
      return false;
    }
    this.seed = folder;
    // Only a folder kept here: the caller removes one this declines at once, while the copy for the next request
    // would still be reading it.
    this.warm?.keep('jest', folder, bytes);
    this.logger.info(`jest's cache: each later run starts with a copy of the baseline's (${size}; jest's default cacheDirectory, ${this.target}, in the run's private /tmp)`);
    return true;
  }
}
