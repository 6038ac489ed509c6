// The settings snapshot's type and its validation rules, without `vscode`, so the rules are unit-tested with plain node.
import { DEFAULT_LINKED_FOLDERS } from '../core/fixRequest';
import { BACKEND_CHOICES } from '../core/sandbox/detect';
import type { BackendChoice } from '../core/sandbox/detect';

/** Where candidates come from (`verifiedFix.provider`). */
export type ProviderName = 'mutation' | 'openai-compatible' | 'vscode-lm';
const providerNames: readonly ProviderName[] = ['mutation', 'openai-compatible', 'vscode-lm'];

/** The settings of one request, mirroring `contributes.configuration` in package.json. */
export interface Settings {
  /** `verifiedFix.testCommand`: shell command line that runs the tests; undefined = detect from the workspace. */
  readonly testCommand: string | undefined;
  /** `verifiedFix.samples`: n, how many candidates to ask for (1–100, default 10). */
  readonly samples: number;
  /** `verifiedFix.k`: the k of pass@k and pass^k (1 ≤ k ≤ samples, default 5). */
  readonly k: number;
  /** `verifiedFix.testTimeoutSeconds`, in milliseconds: one test run (default 60 s). */
  readonly testTimeoutMs: number;
  /** `verifiedFix.totalTimeoutSeconds`, in milliseconds: the whole request (default 600 s). */
  readonly totalTimeoutMs: number;
  /** `verifiedFix.parallel`: test runs at once; 0 in the setting means the CPU count, resolved here. */
  readonly parallel: number;
  /** `verifiedFix.provider`: `mutation` (offline, default), `openai-compatible` or `vscode-lm`. */
  readonly provider: ProviderName;
  /** `verifiedFix.fallbackProvider`: asked only when no candidate of `provider` is verified; undefined = none. */
  readonly fallbackProvider: ProviderName | undefined;
  /** `verifiedFix.baselineCheck`: also run the tests on the unmodified code (default true). */
  readonly baselineCheck: boolean;
  /** `verifiedFix.confirmRuns`: passes a candidate needs to count as verified (1–10, default 2). */
  readonly confirmRuns: number;
  /** `verifiedFix.stagedVerification`: the failing tests first, the full command for survivors (default true). */
  readonly stagedVerification: boolean;
  /** `verifiedFix.isolation.linkedFolders`: folders linked into each copy instead of copied. */
  readonly linkedFolders: readonly string[];
  /** `verifiedFix.isolation.excludes`: extra paths never copied, besides .gitignore. */
  readonly excludes: readonly string[];
  /** `verifiedFix.sandbox.network`: allow network in test runs (default false). */
  readonly allowNetwork: boolean;
  /** `verifiedFix.sandbox.memoryMB`: memory cap per test run in MiB, 0 = none (default 4096). */
  readonly memoryMB: number;
  /** `verifiedFix.sandbox.passEnv` (machine scope): secret-looking variables the tests may still get. */
  readonly passEnv: readonly string[];
  /** `verifiedFix.sandbox.backend`: `auto` (default) or one containment kind. */
  readonly backend: BackendChoice;
  /** `verifiedFix.endpoint`: base URL of an OpenAI-compatible server (ending in /v1). */
  readonly endpoint: string;
  /** `verifiedFix.model`: model name for `openai-compatible`; vendor/family[/id] for `vscode-lm`. */
  readonly model: string;
  /** `verifiedFix.temperature`: sampling temperature, 0–2 (default 0.8: the samples must differ). */
  readonly temperature: number;
  /** `verifiedFix.maxConcurrentRequests`: model requests in flight at once (default 4). */
  readonly maxConcurrentRequests: number;
}

/** A snapshot and what was wrong with the raw values (each message names its setting and the value used). */
export interface SettingsReading {
  readonly settings: Settings;
  readonly problems: readonly string[];
}

/** The configuration section every setting lives under. */
export const SECTION = 'verifiedFix';

/** Reads `name` from `get` as an integer in [min, max], else reports it and uses `fallback`. */
function integer(get: (key: string) => unknown, problems: string[], key: string, fallback: number, min: number, max: number): number {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  problems.push(`"${SECTION}.${key}" must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}; using ${fallback}.`);
  return fallback;
}

function decimal(get: (key: string) => unknown, problems: string[], key: string, fallback: number, min: number, max: number): number {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
  problems.push(`"${SECTION}.${key}" must be a number from ${min} to ${max}, got ${JSON.stringify(value)}; using ${fallback}.`);
  return fallback;
}

function bool(get: (key: string) => unknown, problems: string[], key: string, fallback: boolean): boolean {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  problems.push(`"${SECTION}.${key}" must be true or false, got ${JSON.stringify(value)}; using ${fallback}.`);
  return fallback;
}

function text(get: (key: string) => unknown, problems: string[], key: string, fallback: string): string {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value.trim();
  problems.push(`"${SECTION}.${key}" must be a string, got ${JSON.stringify(value)}; using "${fallback}".`);
  return fallback;
}

function strings(get: (key: string) => unknown, problems: string[], key: string, fallback: readonly string[]): readonly string[] {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v: string) => v.trim()).filter(Boolean);
  problems.push(`"${SECTION}.${key}" must be a list of strings, got ${JSON.stringify(value)}; using ${JSON.stringify(fallback)}.`);
  return fallback;
}

/**
 * Validates raw values (`get` returns what settings.json holds, or undefined) into a snapshot. Pure, so the rules
 * are the same wherever the values come from; `cpuCount` resolves `parallel: 0`.
 */
export function validateSettings(get: (key: string) => unknown, cpuCount: number): SettingsReading {
  const problems: string[] = [];
  const samples = integer(get, problems, 'samples', 10, 1, 100);
  let k = integer(get, problems, 'k', Math.min(5, samples), 1, 100);
  if (k > samples) {
    problems.push(`"${SECTION}.k" (${k}) must not exceed "${SECTION}.samples" (${samples}); using k = ${samples}.`);
    k = samples;
  }
  const providerValue = get('provider');
  let provider: ProviderName = 'mutation';
  if (typeof providerValue === 'string' && (providerNames as readonly string[]).includes(providerValue)) provider = providerValue as ProviderName;
  else if (providerValue !== undefined && providerValue !== null) {
    problems.push(`"${SECTION}.provider" must be one of ${providerNames.join(', ')}, got ${JSON.stringify(providerValue)}; using mutation.`);
  }
  const fallbackValue = get('fallbackProvider');
  let fallbackProvider: ProviderName | undefined;
  if (typeof fallbackValue === 'string' && (providerNames as readonly string[]).includes(fallbackValue)) fallbackProvider = fallbackValue as ProviderName;
  else if (fallbackValue !== undefined && fallbackValue !== null && fallbackValue !== 'none') {
    problems.push(`"${SECTION}.fallbackProvider" must be one of none, ${providerNames.join(', ')}, got ${JSON.stringify(fallbackValue)}; using none.`);
  }
  if (fallbackProvider === provider) {
    problems.push(`"${SECTION}.fallbackProvider" is the same as "${SECTION}.provider" (${provider}); using none.`);
    fallbackProvider = undefined;
  }
  const parallel = integer(get, problems, 'parallel', 0, 0, 256);
  const backends: readonly string[] = BACKEND_CHOICES;
  const backendValue = get('sandbox.backend');
  let backend: BackendChoice = 'auto';
  if (typeof backendValue === 'string' && backends.includes(backendValue)) backend = backendValue as BackendChoice;
  else if (backendValue !== undefined && backendValue !== null) {
    problems.push(`"${SECTION}.sandbox.backend" must be one of ${backends.join(', ')}, got ${JSON.stringify(backendValue)}; using auto.`);
  }
  const testCommand = text(get, problems, 'testCommand', '');
  const settings: Settings = {
    testCommand: testCommand === '' ? undefined : testCommand,
    samples,
    k,
    testTimeoutMs: Math.round(1000 * decimal(get, problems, 'testTimeoutSeconds', 60, 1, 86_400)),
    totalTimeoutMs: Math.round(1000 * decimal(get, problems, 'totalTimeoutSeconds', 600, 1, 86_400)),
    parallel: parallel === 0 ? Math.max(1, cpuCount) : parallel,
    provider,
    fallbackProvider,
    baselineCheck: bool(get, problems, 'baselineCheck', true),
    confirmRuns: integer(get, problems, 'confirmRuns', 2, 1, 10),
    stagedVerification: bool(get, problems, 'stagedVerification', true),
    linkedFolders: strings(get, problems, 'isolation.linkedFolders', DEFAULT_LINKED_FOLDERS),
    excludes: strings(get, problems, 'isolation.excludes', []),
    allowNetwork: bool(get, problems, 'sandbox.network', false),
    memoryMB: integer(get, problems, 'sandbox.memoryMB', 4096, 0, 1_048_576),
    passEnv: strings(get, problems, 'sandbox.passEnv', []),
    backend,
    endpoint: text(get, problems, 'endpoint', 'http://localhost:11434/v1'),
    model: text(get, problems, 'model', ''),
    temperature: decimal(get, problems, 'temperature', 0.8, 0, 2),
    maxConcurrentRequests: integer(get, problems, 'maxConcurrentRequests', 4, 1, 64),
  };
  return { settings: Object.freeze(settings), problems };
}
