// Turns `npm test` (and the like) into the script's own command line, resolved once per request, so each run of the
// tests starts the runner directly instead of paying for npm's start-up first.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { walkScripts } from './scriptChain';
import { shellQuote, shellWords } from '../testResults/shell';
import type { ShellWord } from '../testResults/shell';

/**
 * `resolved`: run `command` with `/bin/sh -c` in the workspace's copy, with `env` added to the environment; `script`
 * is the script's name. `unchanged`: run the command as it is; `reason` says why for the log (none when the command
 * runs no package.json script).
 */
export type ScriptResolution =
  | { readonly kind: 'resolved'; readonly command: string; readonly env: Readonly<Record<string, string>>; readonly script: string; readonly description: string }
  | { readonly kind: 'unchanged'; readonly reason?: string };

const PACKAGE_MANAGER = /(?:^|[\s;&|(])(?:npm|pnpm|yarn|npx)(?:\s|$)/;
// .npmrc settings that change how a script starts (its shell, node's options) or whether scripts run at all.
const NPMRC_SETTINGS = /^\s*(script[-_]shell|node[-_]options|ignore[-_]scripts|shell[-_]emulator)\s*=/im;
// Yarn 2+ runs scripts in its own shell, with a Plug'n'Play resolver only Yarn sets up.
const YARN_BERRY_FILES = ['.pnp.cjs', '.pnp.js', '.yarnrc.yml'];
// yarn and pnpm run these themselves even when package.json has a script of that name (`yarn check`, `pnpm deploy`).
const BUILT_IN = new Set(
  ('access add audit autoclean bin cache check config create deploy dlx doctor env exec fetch generate-lock-entry global help ' +
    'import info init install install-test it licenses link list login logout ls node outdated owner pack patch ' +
    'policies prune publish rebuild remove root server setup store tag team unlink unplug update upgrade version ' +
    'versions why workspace workspaces').split(' '),
);

const unchanged = (reason: string): ScriptResolution => ({ kind: 'unchanged', reason });
const raw = (words: readonly ShellWord[]) => words.map((word) => word.raw);

/** The package.json fields npm exports to scripts as `npm_package_*` (npm RFC 183), flattened as npm flattens them. */
function packageEnv(value: unknown, prefix: string, env: Record<string, string>): Record<string, string> {
  if (value === undefined) return env;
  if (value === null || value === false) env[prefix] = '';
  else if (Array.isArray(value)) value.forEach((item, index) => packageEnv(item, `${prefix}_${index}`, env));
  else if (typeof value === 'object') for (const [key, item] of Object.entries(value)) packageEnv(item, `${prefix}_${key}`, env);
  else env[prefix] = String(value);
  return env;
}

/** Whether sh would expand the word (an unquoted glob or leading `~`): npm got it expanded, so quoting its text would differ. */
function expandsInShell(word: ShellWord): boolean {
  const unquoted = word.raw.replace(/'[^']*'|"(?:\\.|[^"\\])*"|\\./g, '');
  return /[*?[]/.test(unquoted) || unquoted.startsWith('~');
}

/** The folder and each folder above it, nearest first. */
function selfAndAncestors(folder: string): string[] {
  const folders = [folder];
  for (let parent = dirname(folder); parent !== folders[folders.length - 1]; parent = dirname(parent)) folders.push(parent);
  return folders;
}

/**
 * Whether the script is a single program the shell can hand its process to: a simple command naming node or a
 * local binary. Anything else may be a shell builtin or keyword (`exit 1`, `cd`, `!`), which `exec` would break.
 */
function canExec(script: string, binFolders: readonly string[]): boolean {
  const words = shellWords(script);
  if ('refused' in words || words.length === 0) return false;
  const program = words[0].value;
  if (!/^[\w@+-][\w.@+-]*$/.test(program)) return false;
  return program === 'node' || binFolders.some((folder) => existsSync(join(folder, program)));
}

/**
 * What `command` (the workspace's test command) runs when it is one npm, pnpm or yarn script call, as a sh command
 * line equivalent to what the package manager would run: the script's text as written with the passed-on arguments
 * appended, quoted, as npm appends them; PATH starting with the copy's node_modules/.bin, then the original
 * workspace's ancestors' (a package inside a monorepo finds its root's tools, as with npm), then the caller's PATH;
 * and npm's lifecycle variables. Anything npm would do besides running the script (pre/post scripts, workspaces,
 * another shell or node options from .npmrc, Yarn 2+) keeps the command unchanged, with the reason.
 */
export function resolvePackageScript(workspace: string, command: string, nodePath: string = process.execPath): ScriptResolution {
  const walk = walkScripts(workspace, command);
  const first = walk.levels[0];
  if (!first) return walk.stopped?.kind === 'refused' && PACKAGE_MANAGER.test(command) ? unchanged(`the test command ${walk.stopped.reason}`) : { kind: 'unchanged' };
  const { assignments, words, call } = first;
  if (first.crossEnv || words.length === 0) return { kind: 'unchanged' };
  const tool = basename(words[0].value);
  if (tool === 'npx') return unchanged("npx runs a package's binary, not a package.json script");
  if (tool === 'npm' && words[1]?.value === 'start') return unchanged('npm start starts the package rather than its tests, so it is left to npm');
  if (walk.levels.length === 1 && walk.stopped?.kind === 'notAScript') return unchanged(walk.stopped.reason);
  if (!call) return { kind: 'unchanged' };
  if (tool !== 'npm' && BUILT_IN.has(words[1].value)) return unchanged(`${tool} ${words[1].value} is ${tool}'s own command, not the package.json script`);
  if (tool !== 'npm' && words.some((word) => word.value.startsWith('-'))) {
    return unchanged(`${tool} passes options and "--" to scripts differently across its versions`);
  }
  if (process.platform === 'win32') return unchanged('package managers run scripts through cmd.exe on Windows');
  const npmConfig = assignments.find((word) => /^npm_config_/i.test(word.value));
  if (npmConfig) return unchanged(`the test command sets npm's own configuration (${npmConfig.raw})`);
  const globbed = call.extra.find(expandsInShell);
  if (globbed) return unchanged(`the argument ${globbed.raw} is expanded by the shell before ${tool} sees it`);

  const pkg = walk.pkg;
  if (!pkg) return unchanged('package.json is missing or is not a JSON object');
  const name = call.script;
  const text = call.text;
  if (text === undefined) return unchanged(`package.json has no "${name}" script`);
  if (!text.trim()) return unchanged(`the "${name}" script is empty`);
  if (walk.levels.length === 1 && walk.stopped?.kind === 'hook') return unchanged(`the "${walk.stopped.hook}" script runs with "${name}"`);
  if (pkg.workspaces !== undefined) return unchanged('package.json declares workspaces, which the package manager links and runs across');
  if (tool === 'yarn' && typeof pkg.packageManager === 'string' && /^yarn@(?!1\.)/.test(pkg.packageManager)) {
    return unchanged(`package.json asks for ${pkg.packageManager}, which runs scripts in its own shell`);
  }
  const folders = selfAndAncestors(realpathSync(workspace));
  for (const folder of folders) {
    const berry = YARN_BERRY_FILES.find((file) => existsSync(join(folder, file)));
    if (berry) return unchanged(`${join(folder, berry)} marks a Yarn 2+ project, whose scripts run in Yarn's own shell`);
  }
  let npmrc = '';
  try {
    npmrc = readFileSync(join(workspace, '.npmrc'), 'utf8');
  } catch {
    // No .npmrc: npm's defaults.
  }
  const setting = NPMRC_SETTINGS.exec(npmrc);
  if (setting) return unchanged(`.npmrc sets ${setting[1]}, which changes how scripts run`);

  // The copy's own node_modules/.bin comes from $PWD; those above the original workspace are the same for every copy.
  const ancestorBins = folders.slice(1).map((folder) => join(folder, 'node_modules', '.bin')).filter((bin) => existsSync(bin));
  const path = ['"$PWD/node_modules/.bin"', ...ancestorBins.map(shellQuote), '"$PATH"'].join(':');
  const names = assignments.map((word) => word.value.slice(0, word.value.indexOf('=')));
  const exported = [...names, `PATH=${path}`, 'npm_package_json="$PWD/package.json"', 'INIT_CWD="$PWD"'];
  // The prefix's own assignments stay assignments (not export's arguments): `~` after `=` expands as it did before.
  const setup = `${assignments.length > 0 ? `${raw(assignments).join(' ')}; ` : ''}export ${exported.join(' ')}; `;
  const run = [text, ...call.extra.map((word) => shellQuote(word.value))].join(' ');
  const env: Record<string, string> = {
    ...packageEnv({ name: pkg.name, version: pkg.version, config: pkg.config, engines: pkg.engines, bin: pkg.bin }, 'npm_package', {}),
    npm_lifecycle_event: name,
    npm_lifecycle_script: text,
    npm_node_execpath: nodePath,
    NODE: nodePath,
  };
  // npm 11 says `run` where npm 10 said `run-script`; only `test` is the same in every version.
  if (tool === 'npm' && ['test', 't', 'tst'].includes(words[1].value)) env.npm_command = 'test';
  const invocation = name === 'test' ? `${tool} test` : `${tool} run ${name}`;
  return {
    kind: 'resolved',
    command: `${setup}${canExec(text, [join(workspace, 'node_modules', '.bin'), ...ancestorBins]) ? 'exec ' : ''}${run}`,
    env,
    script: name,
    description: `${invocation} runs its script directly: ${run.replace(/\s*\n\s*/g, ' ')} (node_modules/.bin on PATH)`,
  };
}

/** The `node` a package manager found on `PATH` would run scripts with (the editor's own executable is Electron). */
export function nodeOnPath(pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const folder of pathVariable.split(delimiter).filter(Boolean)) {
    const candidate = join(folder, process.platform === 'win32' ? 'node.exe' : 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Variables a package manager sets for the script it runs: those of an outer npm (the CLI run by `npm exec`) would lie. */
const SCRIPT_VARIABLE = /^(npm_(lifecycle_|package_)|npm_execpath$|npm_command$|npm_node_execpath$|INIT_CWD$)/;

/**
 * What each run of `command` starts, and with which environment (`env` is the run's, secrets already gone): the
 * script itself where it resolves, with the variables npm would give it in place of any an outer npm set; else the
 * command as written. `log` says which and why. Containers keep the package manager: the node found here is not the
 * image's.
 */
export function commandToRun(workspace: string, command: string, inContainer: boolean, env: NodeJS.ProcessEnv): { readonly command: string; readonly env: NodeJS.ProcessEnv; readonly log: string } {
  const node = nodeOnPath();
  const resolution: ScriptResolution = inContainer
    ? { kind: 'unchanged', reason: 'the tests run in a container, whose node is not the one found here' }
    : node
      ? resolvePackageScript(workspace, command, node)
      : { kind: 'unchanged', reason: 'no node on PATH' };
  if (resolution.kind === 'unchanged') return { command, env, log: `each run starts \`${command}\` as written${resolution.reason ? `: ${resolution.reason}` : ''}` };
  const own = Object.fromEntries(Object.entries(env).filter(([name]) => !SCRIPT_VARIABLE.test(name)));
  return { command: resolution.command, env: { ...own, ...resolution.env }, log: resolution.description };
}
