// The steps of an npm/pnpm/yarn script chain that both the run command and the runner are read from: one pattern for
// `NAME=value` prefixes, one reading of package.json, one rule for pre/post hooks.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SHELL_ASSIGNMENT, shellWords } from '../testResults/shell';
import type { ShellWord } from '../testResults/shell';

// Options of npm, pnpm and yarn themselves that change only what they print; any other would be lost.
const QUIET_OPTIONS = new Set(['-s', '--silent', '-q', '--quiet', '--if-present']);
const raw = (words: readonly ShellWord[]) => words.map((word) => word.raw);

/** The package.json fields the chain's readers use. */
export interface PackageJson {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly config?: unknown;
  readonly engines?: unknown;
  readonly bin?: unknown;
  readonly scripts?: Record<string, unknown>;
  readonly workspaces?: unknown;
  readonly packageManager?: unknown;
}

/** The workspace's package.json, or undefined when it is missing or not a JSON object. */
function readPackage(workspace: string): PackageJson | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8'));
    return pkg && typeof pkg === 'object' && !Array.isArray(pkg) ? (pkg as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/** The package's scripts (empty when it declares none). */
function scriptsOf(pkg: PackageJson): Record<string, unknown> {
  return pkg.scripts && typeof pkg.scripts === 'object' ? pkg.scripts : {};
}

/** The `pre`/`post` script the package manager would run with `name`, if there is one: running the script alone would skip it. */
function hookOf(scripts: Record<string, unknown>, name: string): string | undefined {
  return [`pre${name}`, `post${name}`].find((hook) => typeof scripts[hook] === 'string');
}

/** The script an npm, pnpm or yarn command line runs, and the arguments it passes on; undefined when not a script run. */
function scriptCall(words: readonly ShellWord[]): { script: string; extra: ShellWord[] } | { unsupported: string } | undefined {
  const tool = basename(words[0].value);
  if (tool !== 'npm' && tool !== 'pnpm' && tool !== 'yarn') return undefined;
  const first = words[1]?.value;
  let at: number;
  if (first === 'test' || first === 't' || (tool === 'npm' && first === 'tst')) at = 1;
  else if (first === 'run' || (tool === 'npm' && ['run-script', 'rum', 'urn'].includes(first))) at = 2;
  else if (tool !== 'npm' && first !== undefined && !first.startsWith('-')) at = 1; // `yarn unit`, `pnpm unit`
  else return { unsupported: `${raw(words.slice(0, 2)).join(' ')} does not run a package.json script` };
  const script = at === 1 && (first === 't' || first === 'tst') ? 'test' : words[at === 1 ? 1 : 2]?.value;
  if (!script) return { unsupported: `${raw(words).join(' ')} names no script` };
  const extra: ShellWord[] = [];
  let passThrough = false;
  for (const word of words.slice(at + 1)) {
    if (!passThrough && word.value === '--') passThrough = true;
    else if (!passThrough && word.value.startsWith('-')) {
      if (!QUIET_OPTIONS.has(word.value)) return { unsupported: `${tool} option ${word.value} cannot be kept when the script's command runs alone` };
    } else extra.push(word);
  }
  return { script, extra };
}

/** One level of a script chain: a command line, and the script it calls when it is a package-manager script call. */
export interface ChainLevel {
  /** How messages name this level: "the test command", `the "unit" script`. */
  readonly what: string;
  /** Its `NAME=value` prefixes (cross-env's included), which hold for everything this level runs. */
  readonly assignments: readonly ShellWord[];
  /** Whether `cross-env` stood before the program: it only sets variables, as the prefixes do. */
  readonly crossEnv: boolean;
  /** The program and its arguments. */
  readonly words: readonly ShellWord[];
  /** The script call this level makes (`npm test`, `yarn unit -- x`), with the script's text when package.json has it. */
  readonly call?: { readonly script: string; readonly extra: readonly ShellWord[]; readonly text?: string };
}

/** Where and why a walk stopped before it reached a program. */
export type ChainStop =
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'noProgram' }
  | { readonly kind: 'notAScript'; readonly reason: string }
  | { readonly kind: 'noScript'; readonly script: string }
  | { readonly kind: 'hook'; readonly script: string; readonly hook: string }
  | { readonly kind: 'tooDeep'; readonly depth: number };

export interface ChainWalk {
  /** Every level read, outermost first; the last one runs a program unless `stopped` says otherwise. */
  readonly levels: readonly ChainLevel[];
  readonly stopped?: ChainStop & { readonly what: string };
  /** The workspace's package.json, when some level called a script. */
  readonly pkg?: PackageJson;
}

// Scripts calling scripts: deeper than this is a loop or not worth following.
export const MAX_SCRIPT_DEPTH = 4;

/**
 * The one reading of a test command's script chain: `npm test` → the "test" script's text (with the arguments npm
 * would append) → the script it calls, and so on, until a level runs a program. Both the command each run starts
 * (packageScript.ts) and the runner behind it (runner.ts) are read from this walk, so they cannot disagree on it.
 */
export function walkScripts(workspace: string, command: string): ChainWalk {
  const levels: ChainLevel[] = [];
  let pkg: PackageJson | undefined;
  let line = command.trim();
  let what = 'the test command';
  for (let depth = 0; ; depth++) {
    const stop = (stopped: ChainStop): ChainWalk => ({ levels, stopped: { ...stopped, what }, ...(pkg ? { pkg } : {}) });
    const parsed = shellWords(line);
    if ('refused' in parsed) return stop({ kind: 'refused', reason: parsed.refused });
    let words = parsed;
    const assignments: ShellWord[] = [];
    let crossEnv = false;
    for (;;) {
      while (words.length > 0 && SHELL_ASSIGNMENT.test(words[0].value)) assignments.push(words.shift() as ShellWord);
      if (words[0]?.value !== 'cross-env') break;
      crossEnv = true;
      words = words.slice(1);
    }
    const found = words.length > 0 ? scriptCall(words) : undefined;
    if (!found || 'unsupported' in found) {
      levels.push({ what, assignments, crossEnv, words });
      if (words.length === 0) return stop({ kind: 'noProgram' });
      return found ? stop({ kind: 'notAScript', reason: found.unsupported }) : { levels, ...(pkg ? { pkg } : {}) };
    }
    if (depth >= MAX_SCRIPT_DEPTH) {
      levels.push({ what, assignments, crossEnv, words });
      return stop({ kind: 'tooDeep', depth: MAX_SCRIPT_DEPTH });
    }
    pkg ??= readPackage(workspace);
    const scripts = pkg ? scriptsOf(pkg) : {};
    const text = scripts[found.script];
    levels.push({ what, assignments, crossEnv, words, call: { ...found, ...(typeof text === 'string' ? { text } : {}) } });
    if (typeof text !== 'string') return stop({ kind: 'noScript', script: found.script });
    const hook = hookOf(scripts, found.script);
    if (hook) return stop({ kind: 'hook', script: found.script, hook });
    line = [text, ...raw(found.extra)].join(' ');
    what = `the "${found.script}" script`;
  }
}
