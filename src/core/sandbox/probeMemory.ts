// Which sandbox backend last worked on this machine, kept across processes so one slow probe does not demote it.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { release } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { cacheHomePath } from '../base/cacheHome';

/** `${XDG_CACHE_HOME:-~/.cache}/verified-fix/sandbox.json`: a fact of the machine, not of a workspace. */
export function probeMemoryPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheHomePath(env), 'verified-fix', 'sandbox.json');
}

/** The first `name` on PATH, as the runs will find it (another one there, or none, is another machine for this memory). */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find((file) => existsSync(file));
}

/**
 * What the memory is keyed by: the user (namespaces are per-user policy), the kernel (which namespaces exist) and
 * the tools the backends run, as found on PATH.
 */
export function machineKey(env: NodeJS.ProcessEnv = process.env): string {
  const tools = ['bwrap', 'unshare', 'setpriv'].map((tool) => `${tool}=${onPath(tool, env) ?? '-'}`);
  return [`uid=${process.getuid?.() ?? '-'}`, `kernel=${release()}`, ...tools].join(' ');
}

type Memory = Record<string, { readonly backend: string; readonly at: string }>;

function read(file: string): Memory {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Memory) : {};
  } catch {
    return {};
  }
}

/** The backend (its protections' name) that last worked here, if any. */
export function rememberedBackend(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const entry = read(probeMemoryPath(env))[machineKey(env)];
  return typeof entry?.backend === 'string' ? entry.backend : undefined;
}

/** Records the backend that worked; a cache that cannot be written only costs the memory. */
export function rememberBackend(backend: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = probeMemoryPath(env);
  try {
    const memory = read(file);
    memory[machineKey(env)] = { backend, at: new Date().toISOString() };
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Written aside and renamed: two editors probing at once never leave half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, `${JSON.stringify(memory, null, 2)}\n`);
    renameSync(partial, file);
  } catch {
    // No cache folder (read-only home): the next process probes afresh.
  }
}
