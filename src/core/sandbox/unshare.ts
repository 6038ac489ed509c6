// util-linux unshare: PID and mount namespaces, everything but the run's tree read-only, a private /tmp, capabilities dropped.
import { SYSTEM_PATH, toolPath } from '../base/toolPath';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { hiddenPaths, privateTempFolders, splitByKind } from '../security/hiddenPaths';
import { SANDBOX_SETUP_EXIT, SANDBOX_SETUP_MARKER, lowerLayers } from './backend';
import type { PreparedRun, RunSpec, SandboxBackend } from './backend';
import { shellQuote as quote } from '../testResults/shell';
import { sealParents } from './sealedParents';
import { socketsToMask } from '../security/unixSockets';
import { innerCommand, localEnvironment, prepareLocal } from './localRun';
import type { LocalTools } from './localRun';
import type { Protections } from '../contract/protections';

/**
 * The shell that sets up the mount namespace: read-only binds of what must not change, empty mounts over
 * credentials and sockets, then every capability dropped so nothing of it can be undone.
 */
function setupScript(setpriv: boolean, spec: RunSpec): string {
  // The run's PATH may hold relative entries (the copy's own `mount`): the setup runs with capabilities on system folders only.
  const lines = [`fail() { echo "${SANDBOX_SETUP_MARKER}$*" >&2; exit ${SANDBOX_SETUP_EXIT}; }`, 'run_path=$PATH', `PATH=${SYSTEM_PATH}`];
  if (!spec.allowNetwork) lines.push('ip link set lo up 2>/dev/null');
  const home = spec.hostEnv.HOME || homedir();
  const readOnly = [...spec.readOnlyPaths, ...(home && home !== '/' ? [home] : [])].filter((p) => existsSync(p));
  const makeReadOnly = (path: string) =>
    lines.push(`mount --bind ${quote(path)} ${quote(path)} && mount -o remount,bind,ro ${quote(path)} || fail 'cannot make ${path.replace(/'/g, '')} read-only'`);
  readOnly.forEach(makeReadOnly);
  // After home's bind (which does not carry later mounts under it) and before the tests' binds, which are in it.
  if (spec.overlay) {
    const { lower, upper, work } = spec.overlay;
    lines.push(`mount -t overlay verified-fix -o ${quote(`lowerdir=${lowerLayers(spec.overlay)},upperdir=${upper},workdir=${work}`)} ${quote(lower)} || fail 'cannot mount the overlay'`);
  }
  spec.readOnlyInCopy.forEach(makeReadOnly);
  // A bind keeps the read-only flag of the mount it is made in: it is lifted on the bind alone.
  for (const path of spec.writableInCopy ?? []) {
    lines.push(`mount --bind ${quote(path)} ${quote(path)} && mount -o remount,bind,rw ${quote(path)} || fail 'cannot open ${path.replace(/'/g, '')} for writing'`);
  }
  const inTree = splitByKind(spec.hiddenInTree ?? []);
  for (const folder of inTree.folders) lines.push(`mount -t tmpfs -o size=1m,mode=0755 verified-fix ${quote(folder)} || fail 'cannot hide ${folder.replace(/'/g, '')}'`);
  for (const file of inTree.files) lines.push(`mount --bind /dev/null ${quote(file)} || fail 'cannot hide ${file.replace(/'/g, '')}'`);
  const hidden = hiddenPaths(spec.hostEnv, spec.allowNetwork);
  for (const folder of hidden.folders) lines.push(`mount -t tmpfs -o size=1m,mode=0755 verified-fix ${quote(folder)} || fail 'cannot hide ${folder.replace(/'/g, '')}'`);
  for (const file of hidden.files) lines.push(`mount --bind /dev/null ${quote(file)} || fail 'cannot hide ${file.replace(/'/g, '')}'`);
  lines.push(...sealParents(spec, (what) => `fail ${quote(what)}`));
  // After the seal, so the copy's own bind cannot cover them; /tmp, /var/tmp and the temp root are already empty here.
  if (!spec.allowNetwork) {
    for (const socket of socketsToMask(spec.writablePaths, [...privateTempFolders(), ...spec.hiddenFolders, ...hidden.folders]).paths) {
      lines.push(`mount --bind /dev/null ${quote(socket)} 2>/dev/null || [ ! -S ${quote(socket)} ] || fail 'cannot hide the socket ${socket.replace(/'/g, '')}'`);
    }
  }
  // The run started in the copy's folder as it was before these mounts (below the overlay, on a now read-only mount):
  // entering it again is what puts the run in its own tree.
  lines.push(`cd ${quote(spec.copyDir)} || fail 'cannot enter the copy'`);
  lines.push('PATH=$run_path', setpriv ? `exec ${quote(toolPath('setpriv'))} --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs -- "$@"` : 'exec "$@"');
  return lines.join('\n');
}

/** `setpriv`: util-linux's, drops every capability before the test starts (without it root keeps them). */
export function unshareBackend(tools: LocalTools, setpriv: boolean): SandboxBackend {
  const argv = (spec: RunSpec): string[] => {
    // As root no user namespace is needed; otherwise -r maps the user to root inside one.
    const user = process.getuid?.() === 0 ? [] : ['-r'];
    const namespaces = [...user, '--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--mount-proc', ...(spec.allowNetwork ? [] : ['--net'])];
    // unshare outlives a killed editor or CLI unless told to die with it; its --kill-child then ends the namespace.
    const dieWithParent = setpriv ? [toolPath('setpriv'), '--pdeathsig', 'KILL', '--'] : [];
    return [...dieWithParent, toolPath('unshare'), ...namespaces, '--', '/bin/sh', '-c', setupScript(setpriv, spec), 'sandbox-setup', ...innerCommand(tools, spec)];
  };
  return {
    kind: 'unshare',
    isolatesRuns: false,
    usesHostTools: true,
    mountsOverlay: true,
    protections: ({ allowNetwork, memoryMB }): Protections => ({
      backend: 'unshare',
      name: `PID and mount namespaces${setpriv ? ', no capabilities' : ''}`,
      files: 'partly',
      processes: 'all',
      network: allowNetwork ? 'allowed' : 'isolated',
      memory: { capMB: memoryMB, scope: tools.cgroup ? 'run' : tools.prlimit ? 'process' : 'none' },
    }),
    prepare: (spec: RunSpec): Promise<PreparedRun> => prepareLocal(tools, spec, { argv: argv(spec), env: localEnvironment(spec.env, true, spec.writesBytecode === true), namespaced: true }),
  };
}
