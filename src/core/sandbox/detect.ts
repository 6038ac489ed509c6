// Finds which local backends work here, by a real trial run of each with the flags every run will use.
import { toolPath } from '../base/toolPath';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Logger } from '../base/logger';
import { detectCgroup } from './runCgroup';
import type { SandboxBackend } from './backend';
import { bwrapBackend } from './bwrap';
import type { LocalTools } from './localRun';
import { processGroupBackend } from './processGroup';
import { unshareBackend } from './unshare';
import type { LocalBackendKind } from '../contract/choices';


function succeeds(file: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000, ...(env ? { env } : {}) }, (error) => resolve(!error));
  });
}

/** Runs `true` through the backend exactly as a test would run. */
async function works(backend: SandboxBackend): Promise<boolean> {
  const spec = { command: 'true', copyDir: tmpdir(), readOnlyPaths: [], readOnlyInCopy: [], hiddenFolders: [], writablePaths: [], allowNetwork: false, memoryMB: 0, env: process.env, hostEnv: {} };
  const prepared = await backend.prepare(spec);
  try {
    return await succeeds(prepared.file, prepared.args, prepared.env);
  } finally {
    await prepared.release();
  }
}

let probed: Promise<SandboxBackend[]> | undefined;

/** The working local backends, strongest first; `process-group` always works. Probed once per process. */
function workingBackends(): Promise<SandboxBackend[]> {
  probed ??= (async () => {
    const linux = process.platform === 'linux';
    const [prlimit, cgroup] = linux ? await Promise.all([succeeds(toolPath('prlimit'), ['--data=1073741824', '--', 'true']), detectCgroup()]) : [false, undefined];
    const tools: LocalTools = { prlimit, bash: existsSync('/bin/bash'), ...(cgroup ? { cgroup } : {}) };
    const candidates = linux
      ? [
          bwrapBackend(tools, true),
          bwrapBackend(tools, false),
          unshareBackend(tools, true),
          // Without setpriv, root in the namespace keeps its capabilities: only for a user who has none to drop.
          ...(process.getuid?.() === 0 ? [] : [unshareBackend(tools, false)]),
        ]
      : [];
    const ok = await Promise.all(candidates.map(works));
    return [...candidates.filter((_, i) => ok[i]), processGroupBackend(tools)];
  })();
  return probed;
}

/** The strongest local backend that works here. */
export async function detectSandbox(logger?: Logger): Promise<SandboxBackend> {
  const backend = (await workingBackends())[0];
  const { name, memory } = backend.protections({ allowNetwork: false, memoryMB: 1 });
  logger?.info(`sandbox: ${backend.kind} (${name}); memory cap: ${{ run: 'a cgroup per run', process: 'prlimit --data per process', none: 'none' }[memory.scope]}`);
  return backend;
}

/** The strongest working backend of one local kind, or undefined when that kind does not work here. */
export async function sandboxOfKind(kind: LocalBackendKind): Promise<SandboxBackend | undefined> {
  return (await workingBackends()).find((backend) => backend.kind === kind);
}
