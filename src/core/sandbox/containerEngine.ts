// Talking to Podman or Docker: calls that never throw, the locked-down flags of every container, and the probe that
// finds what this engine needs on this machine.
import { toolPath } from '../base/toolPath';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REMOTE_USER } from './containerCopy';

export type ContainerEngine = 'podman' | 'docker';

/** What the probe found: how every container of this backend is created. */
export interface Setup {
  readonly engine: ContainerEngine;
  readonly image: string;
  readonly env: NodeJS.ProcessEnv;
  /** Global flags (`--runtime runc`) and create flags (ulimits, user) this engine needs here. */
  readonly globals: readonly string[];
  readonly flags: readonly string[];
  readonly remote: boolean;
  readonly memoryCapped: boolean;
}

export type Result = { readonly code: number | null; readonly stdout: string; readonly stderr: string };

export const HOST = hostname();
/** Per process: a reused PID (CI containers start at small PIDs) must not make a stale container look like ours. */
export const SESSION = randomBytes(4).toString('hex');
/** Ulimits that root without CAP_SYS_RESOURCE can set (measured; podman asks for 1048576, which fails there). */
const ULIMITS = { nofile: 20000, nproc: 32768 };
/** What the sweep finds a crashed process's containers by. */
export const LABELS = ['--label', `verified-fix.owner=${process.pid}`, '--label', `verified-fix.session=${SESSION}`, '--label', `verified-fix.host=${HOST}`];

/** Runs an engine (or tool) command: its exit code (null: it did not start, or timed out) and output; never rejects. */
export function call(file: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Result> {
  return new Promise((done) => {
    execFile(toolPath(file), args, { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as NodeJS.ErrnoException).code === 'number' ? Number((error as NodeJS.ErrnoException).code) : null) : 0;
      done({ code, stdout, stderr: stderr || (error && code === null ? error.message : '') });
    });
  });
}

/** The last line an engine printed about its failure, for a sentence. */
export const lastError = (r: Result) => (r.stderr.trim().split('\n').filter((l) => /error/i.test(l)).pop() ?? r.stderr.trim().split('\n').pop() ?? `exit ${r.code}`).slice(0, 300);
export const killArgs = (e: ContainerEngine, name: string) => ['rm', '-f', ...(e === 'podman' ? ['-t', '0'] : []), name];

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
export async function probe(engine: ContainerEngine, image: string, env: NodeJS.ProcessEnv, extraArgs: readonly string[], remoteGiven: boolean): Promise<Setup | { problem: string }> {
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
      // Named and labelled like a run: a `run --rm` whose start fails can stay behind (measured), and is removed here.
      const name = `vf-${process.pid}-${SESSION}-probe${attempt}`;
      const args = [...globals, 'run', '--rm', '--name', name, ...LABELS, ...commonFlags(engine, 256, false, remote), ...flags, ...mount, image, 'sh', '-c', remote ? 'true' : `test -f ${marker}/marker || exit 3`];
      const r = await call(engine, args, env, 180_000);
      await call(engine, killArgs(engine, name), env);
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
export function commonFlags(engine: ContainerEngine, memoryMB: number, allowNetwork: boolean, remote: boolean): string[] {
  const memory = memoryMB > 0 ? [`--memory=${memoryMB}m`, `--memory-swap=${memoryMB}m`] : [];
  // Remote: no --read-only (engines refuse to copy into a read-only root) and no /tmp tmpfs (it would hide a copy
  // under /tmp); the unprivileged user cannot write the image's files, and the container is thrown away. Local: the
  // tmpfs is sized by the cap, and its pages count against it; `exec` because tests run what they write there.
  const files = remote ? [] : ['--read-only', '--tmpfs', `/tmp:rw,exec,nosuid,nodev,mode=1777${memoryMB > 0 ? `,size=${memoryMB}m` : ''}`];
  // --log-driver=none: attached output still streams, but podman would also write all of it to disk (100 MB: 40 s).
  // label=disable: bind mounts need no SELinux relabel, which would change the labels of the user's own files.
  return ['--pull=never', ...(allowNetwork ? [] : ['--network=none']), '--init', ...memory, ...files, '--pids-limit=4096', '--security-opt', 'no-new-privileges', '--security-opt', 'label=disable', '--cap-drop=ALL', '--log-driver=none', ...(engine === 'podman' ? ['--http-proxy=false'] : [])];
}

/** Whether `engine` is installed and answers (Docker: its daemon too); the failure's text otherwise. */
export async function answers(engine: ContainerEngine, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await call(engine, ['version', '--format', engine === 'podman' ? '{{.Version}}' : '{{.Server.Version}}'], env, 30_000);
  return r.code === 0 ? undefined : r.code === null && /ENOENT/.test(r.stderr) ? 'not installed' : lastError(r);
}
