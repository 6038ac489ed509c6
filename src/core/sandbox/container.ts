// The container backend: each test run in a fresh Podman or Docker container, created per run and removed after it.
import { toolPath } from '../base/toolPath';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hiddenPaths, splitByKind } from '../security/hiddenPaths';
import { SANDBOX_SETUP_MARKER } from './backend';
import type { PreparedRun, RunSpec, SandboxBackend } from './backend';
import { copyBack, copyRunFiles, inside } from './containerCopy';
import { answers, call, commonFlags, HOST, killArgs, LABELS, lastError, probe, SESSION } from './containerEngine';
import type { ContainerEngine, Setup } from './containerEngine';
import { localEnvironment } from './localRun';
import type { Protections } from '../contract/protections';

export type { ContainerEngine } from './containerEngine';

export interface ContainerOptions {
  readonly engine?: ContainerEngine;
  readonly image?: string;
  readonly extraArgs?: readonly string[];
  readonly workspace: string;
  /** force the copy-in path (a remote engine), else detected */
  readonly remote?: boolean;
  readonly hostEnv: NodeJS.ProcessEnv;
}

/** The image's own PATH and HOME hold; these host values mean nothing (or the wrong thing) inside. */
const HOST_ONLY_ENV = /^(PATH|HOME|HOSTNAME|PWD|OLDPWD|SHLVL|SHELL|TMPDIR|TMP|TEMP|LD_\w+|XDG_(RUNTIME|CONFIG|DATA|STATE)_\w+|DISPLAY|WAYLAND_DISPLAY|DBUS_\w+|SSH_AUTH_SOCK|_)$/;
let counter = 0;

/** JSON with comments and trailing commas, as devcontainer.json allows. */
export function parseJsonc(text: string): unknown {
  const stripped = text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string: string | undefined) => string ?? '');
  return JSON.parse(stripped.replace(/("(?:\\.|[^"\\])*")|,(\s*[}\]])/g, (_match, string: string | undefined, close: string | undefined) => string ?? close ?? ''));
}

async function devcontainerImage(workspace: string): Promise<string | undefined> {
  for (const file of ['.devcontainer/devcontainer.json', '.devcontainer.json']) {
    try {
      const image = (parseJsonc(await readFile(join(workspace, file), 'utf8')) as { image?: unknown }).image;
      if (typeof image === 'string' && image.trim()) return image.trim();
    } catch {
      // absent or not JSON: the next place, then the setting's problem sentence
    }
  }
  return undefined;
}

function volume(path: string, mode: 'ro' | 'rw'): string[] {
  // -v splits on ':'; --mount would split on ','. A ':' is the rarer of the two in a path.
  if (path.includes(':')) throw new Error(`cannot bind-mount ${path} into a container: the path contains ':'`);
  return ['-v', `${path}:${path}:${mode}`];
}

/** Bind mounts, and empty mounts over credentials and hidden folders that lie inside what is mounted. */
function mounts(engine: ContainerEngine, spec: RunSpec): string[] {
  const args = volume(spec.copyDir, 'rw');
  const readOnly = spec.readOnlyPaths.filter((p) => existsSync(p));
  for (const path of readOnly) args.push(...volume(path, 'ro'));
  for (const path of spec.writablePaths) args.push(...volume(path, 'rw'));
  for (const path of spec.readOnlyInCopy.filter((p) => existsSync(p))) args.push(...volume(path, 'ro'));
  const mounted = [spec.copyDir, ...readOnly, ...spec.writablePaths];
  const within = (p: string) => mounted.some((m) => inside(m, p));
  const hidden = hiddenPaths(spec.hostEnv, spec.allowNetwork);
  // podman fills a tmpfs with what lies beneath it unless told not to: here, the very files to hide.
  const empty = engine === 'podman' ? ',notmpcopyup' : '';
  // The workspace's `.git` and untracked `.env*`: it is mounted read-only (the copy's links point into it).
  const inTree = splitByKind(spec.hiddenInTree ?? []);
  for (const folder of [...hidden.folders, ...spec.hiddenFolders, ...inTree.folders].filter(within)) args.push('--tmpfs', `${folder}:ro,size=1k${empty}`);
  for (const file of [...hidden.files, ...inTree.files].filter(within)) args.push('-v', `/dev/null:${file}:ro`);
  return args;
}

/** The run's variables for an env file (never on the command line); multi-line values go by name from the client's env. */
function runVariables(spec: RunSpec): { lines: string[]; byName: NodeJS.ProcessEnv } {
  const lines: string[] = [];
  const byName: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(localEnvironment(spec.env, true))) {
    if (value === undefined || HOST_ONLY_ENV.test(name) || !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) continue;
    if (/[\n\r\0]/.test(value)) byName[name] = value;
    else lines.push(`${name}=${value}`);
  }
  return { lines, byName };
}

/** Wraps `start -a`: a container the engine could not start (still `created`) is a sandbox error, not a failing test. */
const START_SCRIPT = `"$1" start -a "$2"; rc=$?
case " $3 " in *" $rc "*) [ "$("$1" inspect --format '{{.State.Status}}' "$2" 2>/dev/null)" = created ] && echo "${SANDBOX_SETUP_MARKER}$1 could not start the container (its error is above)" >&2;; esac
exit $rc`;

async function prepareRun(setup: Setup, spec: RunSpec): Promise<PreparedRun> {
  const { engine, env } = setup;
  const name = `vf-${process.pid}-${SESSION}-${++counter}`;
  const common = commonFlags(engine, spec.memoryMB, spec.allowNetwork, setup.remote);
  const { lines, byName } = runVariables(spec);
  const envDir = await mkdtemp(join(tmpdir(), 'vf-env-'));
  let created = false;
  try {
    await writeFile(join(envDir, 'env'), lines.join('\n') + '\n', { mode: 0o600 });
    const args = [...setup.globals, 'create', '--name', name, ...LABELS, ...common, ...setup.flags, ...(setup.remote ? [] : mounts(engine, spec)), '--workdir', spec.copyDir, '--env-file', join(envDir, 'env'), ...Object.keys(byName).flatMap((n) => ['--env', n]), setup.image, 'sh', '-c', spec.command];
    const r = await call(engine, args, { ...env, ...byName });
    if (r.code !== 0) throw new Error(`${engine} could not create the container: ${lastError(r)}`);
    created = true;
    if (setup.remote) await copyRunFiles(engine, env, name, spec);
  } catch (error) {
    if (created) await call(engine, killArgs(engine, name), env);
    throw error;
  } finally {
    // The engine read the file at create: the values need not stay on disk for the run.
    await rm(envDir, { recursive: true, force: true });
  }
  let stopping: Promise<void> | undefined;
  let state: Promise<{ oom: boolean; code: number }> | undefined;
  const inspect = () => (state ??= call(engine, ['inspect', '--format', '{{.State.OOMKilled}} {{.State.ExitCode}}', name], env).then((r) => ({ oom: r.stdout.startsWith('true'), code: Number(r.stdout.trim().split(' ')[1]) })));
  return {
    file: '/bin/sh',
    args: ['-c', START_SCRIPT, 'vf-start', toolPath(engine), name, engine === 'podman' ? '125' : '1 125'],
    env,
    started: () => undefined,
    stop() {
      // Killing the client would leave the container running (its monitor is reparented): end it by name.
      stopping ??= call(engine, ['kill', name], env).then(() => call(engine, killArgs(engine, name), env)).then(() => undefined);
      return stopping;
    },
    async release() {
      // Docker fails a second removal while the first is under way, and the container then outlives the run.
      await Promise.all([state, stopping].map((p) => p?.catch(() => undefined)));
      if (setup.remote && !stopping) await copyBack(engine, env, name, spec);
      await call(engine, killArgs(engine, name), env);
    },
    async overMemory() {
      if (spec.memoryMB <= 0 || stopping || !setup.memoryCapped) return false;
      // podman with runc on cgroup v1 reports OOMKilled false for a kill it made: 137 (SIGKILL via --init) tells too.
      const { oom, code } = await inspect();
      return oom || code === 137;
    },
  };
}

const swept = new Map<ContainerEngine, Promise<number>>();
const probed = new Map<string, Promise<Setup | { problem: string }>>();

/** A working container backend, or one actionable sentence why not (engine missing, image missing/unset, podman's ulimit or cgroup errors with what to set). */
export async function createContainerBackend(options: ContainerOptions): Promise<SandboxBackend | { problem: string }> {
  const env = options.hostEnv;
  let engine = options.engine;
  if (engine) {
    const why = await answers(engine, env);
    if (why) return { problem: `${engine} does not answer (${why}): ${engine === 'podman' ? 'install podman (apt-get install podman)' : 'install Docker and start its daemon, or set DOCKER_HOST'}, or choose the other engine` };
  } else {
    engine = (await answers('podman', env)) === undefined ? 'podman' : (await answers('docker', env)) === undefined ? 'docker' : undefined;
    if (!engine) return { problem: 'no container engine answers: install podman (apt-get install podman), or start Docker' };
  }
  const image = options.image?.trim() || (await devcontainerImage(options.workspace));
  if (!image) return { problem: 'no container image: set verifiedFix.container.image (or --container-image)' };
  if ((await call(engine, engine === 'podman' ? ['image', 'exists', image] : ['image', 'inspect', '--format', '{{.Id}}', image], env)).code !== 0) {
    return { problem: `the image ${image} is not among ${engine}'s local images (nothing is pulled): \`${engine} pull ${image}\`, or build one without a registry with Verified Fix's \`bash scripts/container-image.sh\` and set verifiedFix.container.image` };
  }
  if (!swept.has(engine)) swept.set(engine, sweepContainers(engine, env));
  await swept.get(engine);
  // The probe costs a few container runs: once per process for the same engine, image, flags and engine address.
  const key = JSON.stringify([engine, image, options.extraArgs, options.remote, env.CONTAINER_HOST, env.DOCKER_HOST, env.CONTAINERS_CONF]);
  if (!probed.has(key)) probed.set(key, probe(engine, image, env, options.extraArgs ?? [], options.remote ?? false));
  const setup = await (probed.get(key) as Promise<Setup | { problem: string }>);
  // A problem may be fixed by the user before the next request: only a working setup is kept.
  if ('problem' in setup) {
    probed.delete(key);
    return setup;
  }
  return {
    kind: 'container',
    isolatesRuns: true,
    usesHostTools: false,
    mountsOverlay: false,
    protections: ({ allowNetwork, memoryMB }): Protections => ({
      backend: 'container',
      name: `container (${engine}, image ${image}${setup.remote ? ', remote engine' : ''})`,
      files: 'all',
      processes: 'all',
      network: allowNetwork ? 'allowed' : 'isolated',
      memory: { capMB: memoryMB, scope: setup.memoryCapped ? 'run' : 'none' },
    }),
    prepare: (spec) => prepareRun(setup, spec),
  };
}

function isAlive(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes containers left by crashed processes (by label), once per process; never throws. Only this machine's
 * (a shared remote engine also runs other machines'), and of a dead PID or of an earlier process with our PID.
 * createContainerBackend sweeps once per process and engine; a direct call always sweeps.
 */
export async function sweepContainers(engine: ContainerEngine, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const r = await call(engine, ['ps', '-a', '--filter', `label=verified-fix.host=${HOST}`, '--format', '{{.ID}} {{json .Labels}}'], env);
  if (r.code !== 0) return 0;
  let removed = 0;
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const [id, json] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    let labels: Record<string, string> = {};
    try {
      const parsed = JSON.parse(json) as Record<string, string> | string;
      // podman prints a map; docker a "k=v,k=v" string.
      labels = typeof parsed === 'string' ? Object.fromEntries(parsed.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])) : parsed;
    } catch {
      continue;
    }
    const pid = Number(labels['verified-fix.owner']);
    if (!Number.isInteger(pid) || (pid !== process.pid && isAlive(pid)) || (pid === process.pid && labels['verified-fix.session'] === SESSION)) continue;
    if ((await call(engine, killArgs(engine, id), env)).code === 0) removed++;
  }
  return removed;
}
