// The steps of an npm/pnpm/yarn script chain that both the run command and the runner are read from: one pattern for
// `NAME=value` prefixes, one reading of package.json, one rule for pre/post hooks.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ShellWord } from '../testResults/shell';

/** A `NAME=value` word before the program: sh sets it for that command only. */
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

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
export function readPackage(workspace: string): PackageJson | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8'));
    return pkg && typeof pkg === 'object' && !Array.isArray(pkg) ? (pkg as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/** The package's scripts (empty when it declares none). */
export function scriptsOf(pkg: PackageJson): Record<string, unknown> {
  return pkg.scripts && typeof pkg.scripts === 'object' ? pkg.scripts : {};
}

/** The `pre`/`post` script the package manager would run with `name`, if there is one: running the script alone would skip it. */
export function hookOf(scripts: Record<string, unknown>, name: string): string | undefined {
  return [`pre${name}`, `post${name}`].find((hook) => typeof scripts[hook] === 'string');
}

/** The script an npm, pnpm or yarn command line runs, and the arguments it passes on; undefined when not a script run. */
export function scriptCall(words: readonly ShellWord[]): { script: string; extra: ShellWord[] } | { unsupported: string } | undefined {
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
