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
import { rememberBackend, rememberedBackend } from './probeMemory';
import { bubblewrapHint } from './installHint';
import type { LocalBackendKind } from '../contract/choices';


/** A probe's first limit, and the longer one a probe that ran out of it gets before the backend counts as not starting. */
const PROBE_TIMEOUTS_MS = [5000, 20_000];

type ProbeOutcome = 'ok' | 'failed' | 'timeout';

function attempt(file: string, args: readonly string[], timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, ...(env ? { env } : {}) }, (error) => {
      resolve(!error ? 'ok' : (error as { killed?: boolean }).killed ? 'timeout' : 'failed');
    });
  });
}

/** Runs a trial, once more with the longer limit when the first ran out of time: on a loaded machine start-up is slow. */
async function probe(file: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<ProbeOutcome> {
  let outcome: ProbeOutcome = 'failed';
  for (const timeoutMs of PROBE_TIMEOUTS_MS) {
    outcome = await attempt(file, args, timeoutMs, env);
    if (outcome !== 'timeout') return outcome;
  }
  return outcome;
}

const succeeds = async (file: string, args: readonly string[]) => (await probe(file, args)) === 'ok';

/** Runs `true` through the backend exactly as a test would run. */
async function works(backend: SandboxBackend): Promise<ProbeOutcome> {
  const spec = { command: 'true', copyDir: tmpdir(), readOnlyPaths: [], readOnlyInCopy: [], hiddenFolders: [], writablePaths: [], allowNetwork: false, memoryMB: 0, env: process.env, hostEnv: {} };
  const prepared = await backend.prepare(spec);
  try {
    return await probe(prepared.file, prepared.args, prepared.env);
  } finally {
    await prepared.release();
  }
}

const nameOf = (backend: SandboxBackend) => backend.protections({ allowNetwork: false, memoryMB: 1 }).name;
const TOOL_NAMES: Partial<Record<SandboxBackend['kind'], string>> = { bwrap: 'bubblewrap', unshare: 'unshare' };
const toolName = (backend: SandboxBackend) => TOOL_NAMES[backend.kind] ?? nameOf(backend);

/** Stronger backends that are installed but did not start in time, said in place of advice to install them. */
let slowStart: string | undefined;
/** The chosen backend's probe ran out of time, and it was kept because it worked here before: said in the log. */
let keptSlow: string | undefined;

/**
 * Why this process runs under a weaker backend than is installed, when a stronger one did not start in time
 * ("bubblewrap did not start within 20 s; this request runs under unshare"); undefined when none timed out.
 */
export function sandboxSlowStart(): string | undefined {
  return slowStart;
}

/**
 * What to tell a user whose requests are protected less than bubblewrap would: that an installed backend was too
 * slow to start, when that is what happened, else how to install bubblewrap.
 */
export function weakerSandboxAdvice(): string {
  return slowStart ?? bubblewrapHint();
}

let probed: Promise<SandboxBackend[]> | undefined;
let local: Promise<{ tools: LocalTools; candidates: SandboxBackend[] }> | undefined;

/** The tools runs can use, and the local backends to probe, strongest first. Found once per process. */
function localCandidates(): Promise<{ tools: LocalTools; candidates: SandboxBackend[] }> {
  local ??= (async () => {
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
    return { tools, candidates };
  })();
  return local;
}

/** Each backend's trial, run once per process whoever asks first. */
const trials = new Map<SandboxBackend, Promise<ProbeOutcome>>();
function trial(backend: SandboxBackend): Promise<ProbeOutcome> {
  let outcome = trials.get(backend);
  if (!outcome) trials.set(backend, (outcome = works(backend)));
  return outcome;
}

let strongest: Promise<SandboxBackend | undefined> | undefined;

/**
 * The strongest local backend when its trial alone succeeds within its first limit, as it does wherever bubblewrap
 * works: the weaker ones then need no trial (unshare's takes about 170 ms, and every request waited for it).
 * Undefined: the others are tried too (a slow first trial goes on beside them, so a loaded machine waits no longer).
 */
function strongestAlone(): Promise<SandboxBackend | undefined> {
  strongest ??= (async () => {
    const [first] = (await localCandidates()).candidates;
    if (!first) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), PROBE_TIMEOUTS_MS[0])));
    const outcome = await Promise.race([trial(first), late]);
    clearTimeout(timer);
    if (outcome !== 'ok') return undefined;
    rememberBackend(nameOf(first));
    return first;
  })();
  return strongest;
}

/** The working local backends, strongest first; `process-group` always works. Probed once per process. */
function workingBackends(): Promise<SandboxBackend[]> {
  probed ??= (async () => {
    const { tools, candidates } = await localCandidates();
    const outcomes = await Promise.all(candidates.map(trial));
    // The backend that last worked on this machine is not demoted by a probe that only ran out of time; one that
    // failed outright is, and the memory follows.
    const remembered = rememberedBackend();
    const ok = outcomes.map((outcome, i) => outcome === 'ok' || (outcome === 'timeout' && nameOf(candidates[i]) === remembered));
    const working = [...candidates.filter((_, i) => ok[i]), processGroupBackend(tools)];
    const chosen = working[0];
    const at = candidates.indexOf(chosen);
    const slow = (at < 0 ? candidates : candidates.slice(0, at)).filter((backend) => outcomes[candidates.indexOf(backend)] === 'timeout');
    const slowTools = [...new Set(slow.map(toolName))];
    slowStart = slowTools.length > 0 ? `${slowTools.join(' and ')} did not start within ${PROBE_TIMEOUTS_MS[PROBE_TIMEOUTS_MS.length - 1] / 1000} s; this request runs under ${toolName(chosen)}` : undefined;
    if (at >= 0 && outcomes[at] === 'timeout') keptSlow = `${toolName(chosen)} did not start within ${PROBE_TIMEOUTS_MS[PROBE_TIMEOUTS_MS.length - 1] / 1000} s, but worked on this machine before: kept`;
    else rememberBackend(nameOf(chosen));
    return working;
  })();
  return probed;
}

/** The strongest local backend that works here. */
export async function detectSandbox(logger?: Logger): Promise<SandboxBackend> {
  const backend = (await strongestAlone()) ?? (await workingBackends())[0];
  const { name, memory } = backend.protections({ allowNetwork: false, memoryMB: 1 });
  if (keptSlow) logger?.warn(`sandbox: ${keptSlow}`);
  logger?.info(`sandbox: ${backend.kind} (${name}); memory cap: ${{ run: 'a cgroup per run', process: 'prlimit --data per process', none: 'none' }[memory.scope]}`);
  return backend;
}

/** The strongest working backend of one local kind, or undefined when that kind does not work here. */
export async function sandboxOfKind(kind: LocalBackendKind): Promise<SandboxBackend | undefined> {
  return (await workingBackends()).find((backend) => backend.kind === kind);
}
