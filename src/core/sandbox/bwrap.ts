// bubblewrap: each run an unprivileged user with no capabilities, in its own namespaces, seeing only its copy writable.
import { SYSTEM_PATH, toolPath } from '../base/toolPath';
import { hiddenPaths, privateTempFolders, splitByKind } from '../security/hiddenPaths';
import { socketsToMask } from '../security/unixSockets';
import { lowerLayers } from './backend';
import type { OverlayMount, PreparedRun, RunSpec, SandboxBackend } from './backend';
import { innerCommand, localEnvironment, prepareLocal } from './localRun';
import type { LocalTools } from './localRun';
import type { Protections } from '../contract/protections';

/** The identity a run has inside bwrap when the caller is root: `nobody`, owning only what the user namespace maps. */
const UNPRIVILEGED_ID = '65534';

const isRoot = () => process.getuid?.() === 0;

function bwrapArgs(userNamespace: boolean, spec: RunSpec, command: readonly string[]): string[] {
  const args: string[] = [];
  // Inside the overlay's namespace a user is root there, and bwrap would keep that id: give the run the user's own.
  const ownId = spec.overlay && !isRoot() ? ['--uid', String(process.getuid?.()), '--gid', String(process.getgid?.())] : [];
  if (userNamespace) args.push('--unshare-user', ...(isRoot() ? ['--uid', UNPRIVILEGED_ID, '--gid', UNPRIVILEGED_ID] : ownId), '--disable-userns');
  args.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  const temp = privateTempFolders();
  // --size applies to the next tmpfs only.
  for (const folder of temp) args.push(...(spec.memoryMB > 0 ? ['--size', String(spec.memoryMB * 1024 * 1024)] : []), '--tmpfs', folder);
  for (const path of spec.readOnlyPaths) args.push('--ro-bind-try', path, path);
  const hidden = hiddenPaths(spec.hostEnv, spec.allowNetwork);
  for (const folder of [...hidden.folders, ...spec.hiddenFolders]) args.push('--tmpfs', folder);
  for (const file of hidden.files) args.push('--ro-bind', '/dev/null', file);
  args.push('--bind', spec.copyDir, spec.copyDir);
  for (const path of spec.writablePaths) args.push('--bind', path, path);
  // After the folders hidden above: a temp root at /tmp itself must not cover them.
  for (const bind of spec.tempBinds ?? []) args.push('--bind', bind.source, bind.target);
  for (const path of spec.readOnlyInCopy) args.push('--ro-bind', path, path);
  for (const path of spec.writableInCopy ?? []) args.push('--bind', path, path);
  // Every socket listening at this moment (a name list misses /var/tmp, ~/.colima/…/docker.sock), the copy's own view
  // included: with an overlay it is the workspace, where a daemon's socket would be reached through the lower layer.
  if (!spec.allowNetwork) {
    const masks = socketsToMask(spec.writablePaths, [...temp, ...spec.hiddenFolders, ...hidden.folders]);
    for (const socket of masks.paths) args.push('--ro-bind', '/dev/null', socket);
  }
  // The temp root's empty folder holds only this run's tree: read-only, so nothing (a conftest.py, a .mocharc) can be
  // planted above the copy for its runner to find.
  for (const folder of spec.hiddenFolders) args.push('--remount-ro', folder);
  const inTree = splitByKind(spec.hiddenInTree ?? []);
  for (const folder of inTree.folders) args.push('--tmpfs', folder);
  for (const file of inTree.files) args.push('--ro-bind', '/dev/null', file);
  if (!spec.allowNetwork) args.push('--unshare-net');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent', '--new-session', '--chdir', spec.copyDir, '--', ...command);
  return args;
}

/** Who a run is inside: `nobody` for root in a user namespace, else the caller (bwrap keeps the caller's id). */
function runUid(userNamespace: boolean): number | undefined {
  const own = process.getuid?.();
  return userNamespace && own === 0 ? Number(UNPRIVILEGED_ID) : own;
}

/**
 * bubblewrap 0.8 (Debian 12, Ubuntu 24.04) has no overlay options: the overlay is mounted by util-linux `unshare` in a
 * mount namespace (and, for a user, a user namespace) of its own, and bwrap, started in it, binds it like any folder.
 */
export function overlayWrapper(overlay: OverlayMount): string[] {
  const user = isRoot() ? [] : ['--user', '--map-root-user'];
  const mount = 'mount -t overlay verified-fix -o "lowerdir=$4,upperdir=$2,workdir=$3" "$1" || exit 125; shift 4; exec "$@"';
  return [toolPath('unshare'), ...user, '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', `PATH=${SYSTEM_PATH} ${mount}`, 'overlay-mount', overlay.lower, overlay.upper, overlay.work, lowerLayers(overlay)];
}

/**
 * `userNamespace`: run as an unprivileged user in a user namespace (else as the caller, every capability dropped,
 * where user namespaces are off).
 */
export function bwrapBackend(tools: LocalTools, userNamespace: boolean): SandboxBackend {
  return {
    kind: 'bwrap',
    isolatesRuns: true,
    usesHostTools: true,
    mountsOverlay: true,
    privateTempUid: runUid(userNamespace),
    protections: ({ allowNetwork, memoryMB }): Protections => ({
      backend: 'bwrap',
      name: `bubblewrap sandbox${userNamespace ? ' as an unprivileged user' : ''}, no capabilities`,
      files: 'all',
      processes: 'all',
      network: allowNetwork ? 'allowed' : 'isolated',
      memory: { capMB: memoryMB, scope: tools.cgroup ? 'run' : tools.prlimit ? 'process' : 'none' },
    }),
    prepare: (spec: RunSpec): Promise<PreparedRun> =>
      prepareLocal(tools, spec, {
        argv: [...(spec.overlay ? overlayWrapper(spec.overlay) : []), toolPath('bwrap'), ...bwrapArgs(userNamespace, spec, innerCommand(tools, spec))],
        env: localEnvironment(spec.env, true, spec.writesBytecode === true),
        namespaced: true,
      }),
  };
}
