// Picks how runs get their trees, by a real trial of the overlay through the chosen sandbox, once per process.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../base/errors';
import type { Logger } from '../base/logger';
import type { SandboxBackend } from '../sandbox/backend';
import { removeOrSetAside, tempRootPath } from './tempRoot';
import { runTestCommand } from '../sandbox/runCommand';
import type { WorkspaceListing } from './workspaceCopy';
import { CopyTrees } from './copyTrees';
import { OverlayTrees } from './overlayTrees';
import type { RunTrees } from './runTrees';
import type { IsolationChoice } from '../contract/choices';

/** overlayfs options are split on commas and colons, and `\` escapes: a path holding one cannot be named safely. */
const UNSAFE_FOR_OVERLAY = /[,:\\\n]/;

const probes = new Map<string, Promise<string | undefined>>();

/**
 * Runs a write through the backend with an overlay on scratch folders in the temp root (where the layers of real
 * runs go: the file system there must take an upper layer). Undefined when it works, else why not.
 */
function probeOverlay(backend: SandboxBackend): Promise<string | undefined> {
  const key = `${backend.kind}:${tempRootPath()}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = (async () => {
      const root = tempRootPath();
      await mkdir(root, { recursive: true, mode: 0o700 });
      const dir = await mkdtemp(join(root, 'overlay-probe-'));
      try {
        const [lower, upper, work] = ['lower', 'upper', 'work'].map((name) => join(dir, name));
        await Promise.all([lower, upper, work].map((path) => mkdir(path)));
        await writeFile(join(lower, 'file'), 'lower');
        const verdict = await runTestCommand({
          command: 'test "$(cat file)" = lower && echo upper > file',
          cwd: lower,
          overlay: { lower, upper, work },
          timeoutMs: 10_000,
          backend,
          allowNetwork: false,
          memoryMB: 0,
        });
        if (verdict.status !== 'pass') return `the trial run failed: ${(verdict.reason ?? verdict.output).trim().split('\n').slice(-1)[0] || verdict.status}`;
        const [below, above] = await Promise.all([readFile(join(lower, 'file'), 'utf8'), readFile(join(upper, 'file'), 'utf8').catch(() => '')]);
        return below === 'lower' && above === 'upper\n' ? undefined : 'the trial run\'s write did not land in its own layer';
      } finally {
        await removeOrSetAside(dir, root);
      }
    })().catch((error: Error) => `the trial run could not be set up: ${error.message}`);
    probes.set(key, probe);
  }
  return probe;
}

/** Why an overlay cannot serve this request, or undefined when it can. */
async function overlayProblem(backend: SandboxBackend, workspace: string): Promise<string | undefined> {
  if (!backend.mountsOverlay) return `the ${backend.kind} sandbox cannot mount one`;
  if (UNSAFE_FOR_OVERLAY.test(workspace) || UNSAFE_FOR_OVERLAY.test(tempRootPath())) return 'the workspace or temp folder path holds a comma, colon or backslash';
  return probeOverlay(backend);
}

export interface IsolationContext {
  readonly choice: IsolationChoice;
  readonly backend: SandboxBackend;
  /** The workspace's real path (an overlay is mounted over it). */
  readonly workspace: string;
  readonly listing: WorkspaceListing;
  readonly requestDir: string;
  readonly target: string;
  readonly logger: Logger;
}

/**
 * `auto`: an overlay where the sandbox can mount one here, else copies reset between runs. An explicit `overlay` that
 * cannot work stops the request with the reason; `copy` (a fresh copy per run) is what needs least of the system.
 */
export async function chooseIsolation(context: IsolationContext): Promise<RunTrees> {
  const { choice, backend, workspace, listing, requestDir, target, logger } = context;
  if (choice === 'auto' || choice === 'overlay') {
    const problem = await overlayProblem(backend, workspace);
    if (!problem) return new OverlayTrees(workspace, requestDir, target, logger);
    if (choice === 'overlay') throw new UserError(`verifiedFix.isolation.mode / --isolation overlay cannot work here: ${problem}. Use auto, reuse or copy.`);
    logger.info(`isolation: no overlay (${problem}); copies are reused instead`);
  }
  return new CopyTrees(choice === 'copy' ? 'copy' : 'reuse', listing, requestDir, target, logger);
}
