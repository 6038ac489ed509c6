// Where a request's test runs will happen: the sandbox chosen, the workspace listed, old temp folders swept, and a ready executor.
import { UserError } from '../base/errors';
import type { FixRequest } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { SandboxBackend } from '../sandbox/backend';
import { createContainerBackend } from '../sandbox/container';
import { detectSandbox, sandboxOfKind, sandboxSlowStart } from '../sandbox/detect';
import { checkProcessGroup } from '../sandbox/processGroupRisk';
import { sweepOrphans } from '../isolation/tempRoot';
import { listWorkspace } from '../isolation/workspaceCopy';
import type { WorkspaceListing } from '../isolation/workspaceCopy';
import type { TestExecutor } from './executor';
import { LocalExecutor } from './localExecutor';
import type { LocalExecutorOptions } from './localExecutor';
import type { BackendChoice } from '../contract/choices';

/** What every run of the request shares: the containment and the files a copy holds. */
export interface Execution {
  readonly backend: SandboxBackend;
  readonly listing: WorkspaceListing;
}

// Once per process: folders left by an earlier process are removed before the first request makes its own.
let swept: Promise<void> | undefined;

async function containerSandbox(request: FixRequest): Promise<SandboxBackend> {
  const made = await createContainerBackend({ ...request.isolation.container, workspace: request.workspace, hostEnv: process.env });
  if ('problem' in made) throw new UserError(`the container sandbox cannot run: ${made.problem}`);
  return made;
}

async function chooseSandbox(request: FixRequest, logger: Logger): Promise<SandboxBackend> {
  const backend = await pickSandbox(request, logger);
  checkProcessGroup(backend, request.isolation.allowProcessGroupAsRoot === true, logger);
  return backend;
}

async function pickSandbox(request: FixRequest, logger: Logger): Promise<SandboxBackend> {
  const choice: BackendChoice = request.isolation.backend ?? 'auto';
  if (choice === 'auto') return detectSandbox(logger);
  if (choice === 'container') return containerSandbox(request);
  const chosen = await sandboxOfKind(choice);
  if (!chosen) {
    const slow = sandboxSlowStart();
    const why = slow ? `: ${slow.slice(0, slow.indexOf(';'))}` : ' on this system';
    throw new UserError(`the sandbox "${choice}" does not work${why}; choose another (or auto) in verifiedFix.sandbox.backend or --sandbox`);
  }
  return chosen;
}

/** The sandbox backend and the workspace listing, found at once (and the temp root swept, once per process). */
export async function prepareExecution(request: FixRequest, logger: Logger): Promise<Execution> {
  swept ??= sweepOrphans(undefined, (problem) => logger.warn(problem)).then((n) => {
    if (n > 0) logger.info(`removed ${n} temp folder(s) left by an earlier process`);
  });
  const [backend, listing] = await Promise.all([
    chooseSandbox(request, logger),
    listWorkspace(request.workspace, request.isolation.linkedFolders, request.isolation.excludes),
    swept,
  ]);
  return { backend, listing };
}

/**
 * An executor with its trees chosen, ready to `run`: the one place that picks how runs happen. A failure leaves
 * nothing behind.
 */
export async function prepareExecutor(options: LocalExecutorOptions): Promise<TestExecutor> {
  const executor = new LocalExecutor(options);
  try {
    await executor.prepare();
  } catch (error) {
    await executor.dispose();
    throw error;
  }
  return executor;
}
