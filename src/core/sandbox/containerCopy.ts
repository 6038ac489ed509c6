// What a container on a remote engine gets copied in (the run's files, owned so the read-only ones stay so) and out.
import { toolPath } from '../base/toolPath';
import { execFile, spawn } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { RunSpec } from './backend';

/** The unprivileged identity of remote runs: it owns the copy, not the read-only files copied in beside it. */
export const REMOTE_USER = '65534';

/** Whether `child` is `parent` or lies under it. */
export const inside = (parent: string, child: string) => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/** Pipes `tar` of `paths` (absolute) into the container at the same paths, owned and moded as `tarFlags` say. */
function copyIn(engine: string, env: NodeJS.ProcessEnv, name: string, paths: readonly string[], tarFlags: readonly string[]): Promise<void> {
  if (paths.length === 0) return Promise.resolve();
  return new Promise((done, fail) => {
    // GNU tar: --owner/--mode are what make the ownership below; macOS's own tar has no --mode.
    const tar = spawn(toolPath(process.platform === 'darwin' ? 'gtar' : 'tar'), ['-C', '/', '--numeric-owner', ...tarFlags, '-cf', '-', '--', ...paths.map((p) => p.slice(1))], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Both engines keep the archive's owners unless told to chown to the container's user: podman by its --archive,
    // which is on by default, docker by its -a (measured: docker 20.10, podman 4.3).
    const cp = spawn(toolPath(engine), ['cp', ...(engine === 'podman' ? ['--archive=false'] : []), '-', `${name}:/`], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    let tarCode: number | null = null;
    tar.stderr.on('data', (d: Buffer) => (errors += d));
    cp.stderr.on('data', (d: Buffer) => (errors += d));
    tar.stdout.pipe(cp.stdin);
    tar.on('error', fail);
    cp.on('error', fail);
    tar.on('close', (code) => (tarCode = code));
    // tar's 1 is "a file changed as it was read", which a live copy may do.
    cp.on('close', (code) => (code === 0 && (tarCode ?? 0) <= 1 ? done() : fail(new Error(`copying into the container failed: ${errors.trim().slice(0, 300)}`))));
  });
}

/**
 * What a remote container needs besides the copy: the targets of the copy's links into the original workspace (the
 * linked dependency folders), whole, at their own paths, so the links (and the links inside them, such as
 * `node_modules/.bin` or pnpm's store) resolve there as they do here. Links are copied as links, never followed.
 */
export async function linkedTargets(spec: RunSpec): Promise<string[]> {
  const found = new Set<string>();
  for (const entry of await readdir(spec.copyDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) continue;
    const link = join(entry.parentPath, entry.name);
    const target = resolve(dirname(link), await readlink(link));
    if (!inside(spec.copyDir, target) && spec.readOnlyPaths.some((p) => inside(p, target))) found.add(dirname(target));
  }
  const sorted = [...found].sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && inside(q, p)));
}

/**
 * The copy (and the reporter's folders) owned by the run's user; the tests and the linked folders owned by root
 * without write bits; a folder holding a read-only file made root's and sticky, so the run can still create files
 * there but cannot delete and replace that one. (Bind mounts do all this locally; a remote engine has none of our paths.)
 */
export async function copyRunFiles(engine: string, env: NodeJS.ProcessEnv, name: string, spec: RunSpec): Promise<void> {
  const testFiles = spec.readOnlyInCopy.filter((p) => existsSync(p));
  const readOnly = [...testFiles, ...(await linkedTargets(spec))];
  const sticky = [...new Set(testFiles.filter((p) => !lstatSync(p).isDirectory()).map(dirname))].filter((d) => !readOnly.some((r) => inside(r, d)));
  await copyIn(engine, env, name, [spec.copyDir, ...spec.writablePaths.filter((p) => existsSync(p))], [`--owner=${REMOTE_USER}`, `--group=${REMOTE_USER}`, '--mode=u+w']);
  await copyIn(engine, env, name, readOnly, ['--owner=0', '--group=0', '--mode=a-w']);
  await copyIn(engine, env, name, sticky, ['--no-recursion', '--owner=0', '--group=0', '--mode=a+rwxt']);
}

/** The reporter wrote inside the container; the runner reads its files here after the run. Never rejects. */
export async function copyBack(engine: string, env: NodeJS.ProcessEnv, name: string, spec: RunSpec): Promise<void> {
  for (const path of spec.writablePaths.filter((p) => existsSync(p))) {
    await new Promise((done) => execFile(toolPath(engine), ['cp', `${name}:${path}/.`, path], { env, timeout: 120_000 }, done));
  }
}
