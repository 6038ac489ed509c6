// The container backend: each test run in a fresh Podman or Docker container, created per run and removed after it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hiddenPaths } from '../security/hiddenPaths';
import type { PreparedRun, Protections, RunSpec, SandboxBackend } from './backend';
import { copyBack, copyRunFiles, inside, REMOTE_USER } from './containerCopy';
import { localEnvironment } from './localRun';

export type ContainerEngine = 'podman' | 'docker';

export interface ContainerOptions {
  readonly engine?: ContainerEngine;
  readonly image?: string;
  readonly extraArgs?: readonly string[];
  readonly workspace: string;
  /** force the copy-in path (a remote engine), else detected */
  readonly remote?: boolean;
  readonly hostEnv: NodeJS.ProcessEnv;
}

/** What the probe found: how every container of this backend is created. */
interface Setup {
  readonly engine: ContainerEngine;
  readonly image: string;
  readonly env: NodeJS.ProcessEnv;
  /** Global flags (`--runtime runc`) and create flags (ulimits, user) this engine needs here. */
  readonly globals: readonly string[];
  readonly flags: readonly string[];
  readonly remote: boolean;
  readonly memoryCapped: boolean;
}

type Result = { readonly code: number | null; readonly stdout: string; readonly stderr: string };

const HOST = hostname();
/** Per process: a reused PID (CI containers start at small PIDs) must not make a stale container look like ours. */
const SESSION = randomBytes(4).toString('hex');
/** Ulimits that root without CAP_SYS_RESOURCE can set (measured; podman asks for 1048576, which fails there). */
const ULIMITS = { nofile: 20000, nproc: 32768 };
/** The image's own PATH and HOME hold; these host values mean nothing (or the wrong thing) inside. */
const HOST_ONLY_ENV = /^(PATH|HOME|HOSTNAME|PWD|OLDPWD|SHLVL|SHELL|TMPDIR|TMP|TEMP|LD_\w+|XDG_(RUNTIME|CONFIG|DATA|STATE)_\w+|DISPLAY|WAYLAND_DISPLAY|DBUS_\w+|SSH_AUTH_SOCK|_)$/;
let counter = 0;

function call(file: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Result> {
  return new Promise((done) => {
    execFile(file, args, { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as NodeJS.ErrnoException).code === 'number' ? Number((error as NodeJS.ErrnoException).code) : null) : 0;
      done({ code, stdout, stderr: stderr || (error && code === null ? error.message : '') });
    });
  });
}

/** The last line an engine printed about its failure, for a sentence. */
const lastError = (r: Result) => (r.stderr.trim().split('\n').filter((l) => /error/i.test(l)).pop() ?? r.stderr.trim().split('\n').pop() ?? `exit ${r.code}`).slice(0, 300);
const killArgs = (e: ContainerEngine, name: string) => ['rm', '-f', ...(e === 'podman' ? ['-t', '0'] : []), name];

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

/** Whether the engine points at another machine by its environment or current Docker context (else the probe tells). */
async function remoteByConfig(engine: ContainerEngine, env: NodeJS.ProcessEnv): Promise<boolean> {
  let url = (engine === 'docker' ? env.DOCKER_HOST : env.CONTAINER_HOST) ?? '';
  if (engine === 'docker' && !url) url = (await call('docker', ['context', 'inspect', '--format', '{{.Endpoints.docker.Host}}'], env, 10_000)).stdout.trim();
  return /^(ssh|tcp|https?):\/\//.test(url);
}

/** Hard limits of this process, through a shell: node has no getrlimit. */
async function hardLimits(): Promise<{ nofile: number; nproc: number }> {
  const out = (await call('/bin/sh', ['-c', 'ulimit -Hn; ulimit -Hu 2>/dev/null || echo unlimited'], process.env, 5000)).stdout.split('\n');
  const limit = (s: string | undefined, cap: number) => (s && /^\d+$/.test(s.trim()) ? Math.min(Number(s), cap) : cap);
  return { nofile: limit(out[0], ULIMITS.nofile), nproc: limit(out[1], ULIMITS.nproc) };
}

/**
 * A real run with the flags every run uses, fixed step by step where podman's stock settings fail here (its
 * 1048576-file ulimit; crun on hybrid cgroups), and a marker bind-mounted to tell whether local paths reach the engine.
 * Flags instead of our own CONTAINERS_CONF: that variable replaces every containers.conf the user has.
 */
async function probe(engine: ContainerEngine, image: string, env: NodeJS.ProcessEnv, extraArgs: readonly string[], remoteGiven: boolean): Promise<Setup | { problem: string }> {
  const uid = process.getuid?.() ?? 0;
  let remote = remoteGiven || (await remoteByConfig(engine, env));
  const rootless = engine === 'docker' && !remote && /rootless/.test((await call('docker', ['info', '--format', '{{.SecurityOptions}}'], env)).stdout);
  const globals: string[] = [];
  const limits: string[] = [];
  const marker = await mkdtemp(join(tmpdir(), 'vf-probe-'));
  try {
    await writeFile(join(marker, 'marker'), '');
    for (let attempt = 0; attempt < 4; attempt++) {
      // Remote: an unprivileged user owns the copied-in copy. Local podman as a user: keep-id maps the user to itself so
      // the copy's files stay theirs; as root, root in the container with every capability dropped (same owner as the
      // copy, nothing gained by another uid). Docker's daemon is root: --user keeps the copy's files the caller's.
      const user = remote ? ['--user', `${REMOTE_USER}:${REMOTE_USER}`] : engine === 'podman' ? (uid !== 0 ? ['--userns=keep-id'] : []) : uid !== 0 && !rootless ? ['--user', `${uid}:${process.getgid?.() ?? uid}`] : [];
      const flags = [...limits, ...user, ...extraArgs];
      const mount = remote ? [] : ['-v', `${marker}:${marker}:ro`];
      const args = [...globals, 'run', '--rm', ...commonFlags(engine, 256, false, remote), ...flags, ...mount, image, 'sh', '-c', remote ? 'true' : `test -f ${marker}/marker || exit 3`];
      const r = await call(engine, args, env, 180_000);
      const text = r.stderr;
      if (r.code === 0) {
        const memoryCapped = !/does not support memory|limits are not supported|memory.*(ignored|discarded)/i.test(text);
        return { engine, image, env, globals, flags, remote, memoryCapped };
      }
      if (r.code === 3 || (!remote && text.includes(marker))) {
        remote = true; // the engine runs where our paths do not exist (a VM, another machine): copy files in
      } else if (/rlimit/i.test(text) && limits.length === 0) {
        const { nofile, nproc } = await hardLimits();
        limits.push('--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', `nproc=${nproc}:${nproc}`);
      } else if (/rlimit/i.test(text)) {
        return { problem: `${engine} cannot set the container's ulimits here (${lastError(r)}): set default_ulimits = ["nofile=${ULIMITS.nofile}:${ULIMITS.nofile}", "nproc=${ULIMITS.nproc}:${ULIMITS.nproc}"] in a containers.conf named by CONTAINERS_CONF` };
      } else if (/hybrid mode not supported/.test(text) && globals.length === 0 && (await call('runc', ['--version'], env, 10_000)).code === 0) {
        globals.push('--runtime', 'runc');
      } else if (/hybrid mode not supported/.test(text)) {
        return { problem: `podman's crun cannot run containers on this system's hybrid cgroups: install runc (apt-get install runc) and set runtime = "runc" in containers.conf` };
      } else {
        return { problem: `${engine} cannot run a container of ${image}: ${lastError(r)}` };
      }
    }
    return { problem: `${engine} cannot run a container of ${image}` };
  } finally {
    await rm(marker, { recursive: true, force: true });
  }
}

/** The locked-down flags of every container; the probe runs with them too. */
function commonFlags(engine: ContainerEngine, memoryMB: number, allowNetwork: boolean, remote: boolean): string[] {
  const memory = memoryMB > 0 ? [`--memory=${memoryMB}m`, `--memory-swap=${memoryMB}m`] : [];
  // Remote: no --read-only (engines refuse to copy into a read-only root) and no /tmp tmpfs (it would hide a copy
  // under /tmp); the unprivileged user cannot write the image's files, and the container is thrown away. Local: the
  // tmpfs is sized by the cap, and its pages count against it; `exec` because tests run what they write there.
  const files = remote ? [] : ['--read-only', '--tmpfs', `/tmp:rw,exec,nosuid,nodev,mode=1777${memoryMB > 0 ? `,size=${memoryMB}m` : ''}`];
  // --log-driver=none: attached output still streams, but podman would also write all of it to disk (100 MB: 40 s).
  // label=disable: bind mounts need no SELinux relabel, which would change the labels of the user's own files.
  return ['--pull=never', ...(allowNetwork ? [] : ['--network=none']), '--init', ...memory, ...files, '--pids-limit=4096', '--security-opt', 'no-new-privileges', '--security-opt', 'label=disable', '--cap-drop=ALL', '--log-driver=none', ...(engine === 'podman' ? ['--http-proxy=false'] : [])];
}

function volume(path: string, mode: 'ro' | 'rw'): string[] {
  // -v splits on ':'; --mount would split on ','. A ':' is the rarer of the two in a path.
  if (path.includes(':')) throw new Error(`cannot bind-mount ${path} into a container: the path contains ':'`);
  return ['-v', `${path}:${path}:${mode}`];
}

/** Bind mounts, and empty mounts over credentials and hidden folders that lie inside what is mounted. */
function mounts(spec: RunSpec): string[] {
  const args = volume(spec.copyDir, 'rw');
  const readOnly = spec.readOnlyPaths.filter((p) => existsSync(p));
  for (const path of readOnly) args.push(...volume(path, 'ro'));
  for (const path of spec.writablePaths) args.push(...volume(path, 'rw'));
  for (const path of spec.readOnlyInCopy.filter((p) => existsSync(p))) args.push(...volume(path, 'ro'));
  const mounted = [spec.copyDir, ...readOnly, ...spec.writablePaths];
  const within = (p: string) => mounted.some((m) => inside(m, p));
  const hidden = hiddenPaths(spec.hostEnv, spec.allowNetwork);
  for (const folder of [...hidden.folders, ...spec.hiddenFolders].filter(within)) args.push('--tmpfs', `${folder}:ro,size=1k`);
  for (const file of hidden.files.filter(within)) args.push('-v', `/dev/null:${file}:ro`);
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
case " $3 " in *" $rc "*) [ "$("$1" inspect --format '{{.State.Status}}' "$2" 2>/dev/null)" = created ] && echo "verified-fix sandbox: $1 could not start the container (its error is above)" >&2;; esac
exit $rc`;

async function prepareRun(setup: Setup, spec: RunSpec): Promise<PreparedRun> {
  const { engine, env } = setup;
  const name = `vf-${process.pid}-${SESSION}-${++counter}`;
  const labels = ['--label', `verified-fix.owner=${process.pid}`, '--label', `verified-fix.session=${SESSION}`, '--label', `verified-fix.host=${HOST}`];
  const common = commonFlags(engine, spec.memoryMB, spec.allowNetwork, setup.remote);
  const { lines, byName } = runVariables(spec);
  const envDir = await mkdtemp(join(tmpdir(), 'vf-env-'));
  let created = false;
  try {
    await writeFile(join(envDir, 'env'), lines.join('\n') + '\n', { mode: 0o600 });
    const args = [...setup.globals, 'create', '--name', name, ...labels, ...common, ...setup.flags, ...(setup.remote ? [] : mounts(spec)), '--workdir', spec.copyDir, '--env-file', join(envDir, 'env'), ...Object.keys(byName).flatMap((n) => ['--env', n]), setup.image, 'sh', '-c', spec.command];
    const r = await call(engine, args, { ...env, ...byName });
    if (r.code !== 0) throw new Error(`${engine} could not create the container: ${lastError(r)}`);
    created = true;
    if (setup.remote) await copyRunFiles(engine, { ...env, ...byName }, name, spec);
  } catch (error) {
    if (created) await call(engine, killArgs(engine, name), env);
    throw error;
  } finally {
    // The engine read the file at create: the values need not stay on disk for the run.
    await rm(envDir, { recursive: true, force: true });
  }
  let stopped = false;
  let state: Promise<{ oom: boolean; code: number }> | undefined;
  const inspect = () => (state ??= call(engine, ['inspect', '--format', '{{.State.OOMKilled}} {{.State.ExitCode}}', name], env).then((r) => ({ oom: r.stdout.startsWith('true'), code: Number(r.stdout.trim().split(' ')[1]) })));
  return {
    file: '/bin/sh',
    args: ['-c', START_SCRIPT, 'vf-start', engine, name, engine === 'podman' ? '125' : '1 125'],
    env,
    started: () => undefined,
    async stop() {
      // Killing the client would leave the container running (its monitor is reparented): end it by name.
      stopped = true;
      await call(engine, ['kill', name], env);
      await call(engine, killArgs(engine, name), env);
    },
    async release() {
      await state?.catch(() => undefined);
      if (setup.remote) await copyBack(engine, env, name, spec);
      await call(engine, killArgs(engine, name), env);
    },
    async overMemory() {
      if (spec.memoryMB <= 0 || stopped || !setup.memoryCapped) return false;
      // podman with runc on cgroup v1 reports OOMKilled false for a kill it made: 137 (SIGKILL via --init) tells too.
      const { oom, code } = await inspect();
      return oom || code === 137;
    },
  };
}

/** Whether `engine` is installed and answers (Docker: its daemon too); the failure's text otherwise. */
async function answers(engine: ContainerEngine, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await call(engine, ['version', '--format', engine === 'podman' ? '{{.Version}}' : '{{.Server.Version}}'], env, 30_000);
  return r.code === 0 ? undefined : r.code === null && /ENOENT/.test(r.stderr) ? 'not installed' : lastError(r);
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
