// What running tests under the process-group backend gives up, and the refusal to do it as root without an opt-in.
import { UserError } from '../base/errors';
import type { Logger } from '../base/logger';
import type { SandboxBackend } from './backend';

/** Said once per process (a CLI run, an editor session): the first request that runs without a sandbox. */
export const PROCESS_GROUP_RISKS =
  'test runs are NOT sandboxed (process-group backend): a candidate can read and change every file you can, outside its copy too ' +
  '(your home and its credentials, other projects, the workspace itself), reach the network and every local socket (Docker, SSH agent), ' +
  'see and signal your other processes and read their environment; only its process group is killed at the end, and memory is capped per ' +
  'process at most. Install bubblewrap, or use --sandbox container, to protect your files';

let warned = false;

/**
 * Refuses the process-group backend as root unless the user opted in (a machine setting or a flag: a cloned
 * repository cannot): there a candidate is root outside any namespace, so it can unmount `/proc` or rewrite the
 * system. Under any uid, the first such request says what it gives up.
 */
export function checkProcessGroup(backend: SandboxBackend, allowAsRoot: boolean, logger: Logger, uid = process.getuid?.()): void {
  if (backend.kind !== 'process-group') return;
  if (uid === 0 && !allowAsRoot) {
    throw new UserError(
      'refusing to run tests as root without a sandbox: only the process-group backend works here (no user namespaces for bubblewrap or unshare), ' +
        'and a candidate running as root outside any namespace can change every file of this machine. Run as an unprivileged user, ' +
        'enable user namespaces, use --sandbox container, or accept the risk with --allow-process-group-as-root (setting verifiedFix.sandbox.allowProcessGroupAsRoot)',
    );
  }
  if (warned) return;
  warned = true;
  logger.warn(`sandbox: ${PROCESS_GROUP_RISKS}${uid === 0 ? '; running as ROOT, as you allowed' : ''}`);
}
