// Runner configuration discovery bounded to the copy: a runner that searches upward for its configuration (mocha,
// pytest) must not load a file planted above the copy, where no change check looks.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { RunnerName } from '../testResults/types';

/** Flags that keep the runner's configuration inside its working folder, and the log line saying so (or why not). */
export interface ConfigBounds {
  readonly flags: readonly string[];
  readonly log: string;
}

const MOCHA_CONFIGS = ['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.json', '.mocharc.jsonc', '.mocharc.yaml', '.mocharc.yml'];
/** A pytest configuration file, and the section that makes it one (pytest.ini counts whatever it holds). */
const PYTEST_CONFIGS: ReadonlyArray<[name: string, section: RegExp | undefined]> = [
  ['pytest.ini', undefined], ['.pytest.ini', undefined], ['pyproject.toml', /^\[tool\.pytest(\.ini_options)?\]/m], ['tox.ini', /^\[pytest\]/m], ['setup.cfg', /^\[tool:pytest\]/m],
];

const has = (args: readonly string[], ...flags: string[]) => args.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The first folder above `workspace` holding one of `matches`' files: the user's own runs load it, so bounding would change them. */
function above(workspace: string, matches: (folder: string) => string | undefined): string | undefined {
  for (let folder = dirname(workspace); ; folder = dirname(folder)) {
    const found = matches(folder);
    if (found) return found;
    if (dirname(folder) === folder) return undefined;
  }
}

const mochaConfigIn = (folder: string) => MOCHA_CONFIGS.map((name) => join(folder, name)).find((path) => existsSync(path));
const pytestConfigIn = (folder: string) =>
  PYTEST_CONFIGS.map(([name, section]) => [join(folder, name), section] as const).find(([path, section]) => existsSync(path) && (!section || section.test(read(path))))?.[0];

/** The package.json of the mocha the command starts: a script path in it (`node …/mocha/bin/mocha.js`), else the workspace's. */
function mochaPackage(workspace: string, invocation: readonly string[]): string {
  for (const word of invocation) {
    const at = word.lastIndexOf('/mocha/');
    if (at >= 0) return join(resolve(workspace, word.slice(0, at)), 'mocha', 'package.json');
  }
  return join(workspace, 'node_modules', 'mocha', 'package.json');
}

/** mocha 6 brought `.mocharc*` (searched upward) and `--no-config`; before it only ./test/mocha.opts, which is never searched for. */
function mochaBounds(workspace: string, args: readonly string[], invocation: readonly string[]): ConfigBounds | undefined {
  const version = /"version"\s*:\s*"(\d+)\./.exec(read(mochaPackage(workspace, invocation)))?.[1];
  if (version === undefined || Number(version) < 6) return undefined;
  const flags: string[] = [];
  const outside = above(workspace, mochaConfigIn);
  if (outside) return { flags, log: `runner configuration: mocha also reads ${outside} above the workspace, so its search is left unbounded` };
  if (!mochaConfigIn(workspace) && !has(args, '--config', '--no-config')) flags.push('--no-config');
  // package.json's "mocha" key is searched upward too; the workspace's own stops the search.
  if (!existsSync(join(workspace, 'package.json')) && !has(args, '--package', '--no-package') && !above(workspace, (f) => (existsSync(join(f, 'package.json')) ? f : undefined))) flags.push('--no-package');
  return flags.length > 0 ? { flags, log: `runner configuration: only the copy's (mocha ${flags.join(' ')}: the workspace has none, so none above the copy is read)` } : undefined;
}

/**
 * pytest collects conftest.py files down from its confcutdir, which is the rootdir from pytest 8 and `/` before it,
 * and its rootdir is where an ini file is found upward: a planted pytest.ini above the copy moves both.
 */
function pytestBounds(workspace: string, args: readonly string[]): ConfigBounds | undefined {
  const conftest = above(workspace, (f) => (existsSync(join(f, 'conftest.py')) ? join(f, 'conftest.py') : undefined));
  const ini = above(workspace, pytestConfigIn);
  if (conftest || ini) return { flags: [], log: `runner configuration: pytest also reads ${conftest ?? ini} above the workspace, so its search is left unbounded` };
  const flags: string[] = [];
  if (!has(args, '--confcutdir')) flags.push('--confcutdir=.');
  // With no ini file pytest's rootdir is the common folder of the command's paths: only a command naming none (nor
  // any option value, which could be one) keeps its rootdir, the working folder, when both are given.
  const positional = args.some((arg) => !arg.startsWith('-'));
  if (!pytestConfigIn(workspace) && !positional && !has(args, '-c', '--config-file', '--rootdir', '--inifile')) flags.push('-c', '/dev/null', '--rootdir=.');
  return flags.length > 0 ? { flags, log: `runner configuration: only the copy's (pytest ${flags.join(' ')}: no conftest.py or ini file above the copy is read)` } : undefined;
}

/**
 * For the runners that search upward, flags that stop the search at the copy, given the user's own `args` (which win).
 * Only when the user's own runs in the workspace read nothing above it: then the flags change nothing for them.
 */
export function configBounds(runner: RunnerName, workspace: string, args: readonly string[], invocation: readonly string[]): ConfigBounds | undefined {
  if (runner === 'mocha') return mochaBounds(workspace, args, invocation);
  if (runner === 'pytest') return pytestBounds(workspace, args);
  return undefined;
}
