// Which node and python the runs use (path and version), what the project declares instead, and which version manager could provide it.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';
import { homedir } from 'node:os';

export type Tool = 'node' | 'python';

/** A version a project asks for, and the file that says so. */
export interface Declared {
  readonly version: string;
  readonly source: string;
}

/** How a version is asked of a program: injected, so the reading and the wording can be tested without spawning. */
export type VersionOf = (path: string, tool: Tool) => string | undefined;

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The node version the project declares: .nvmrc, .node-version, then package.json's engines.node. */
export function declaredNode(workspace: string): Declared | undefined {
  for (const file of ['.nvmrc', '.node-version']) {
    const version = read(join(workspace, file))?.split('\n')[0]?.trim();
    if (version) return { version, source: file };
  }
  try {
    const engines = (JSON.parse(read(join(workspace, 'package.json')) ?? '{}') as { engines?: { node?: unknown } }).engines;
    if (typeof engines?.node === 'string' && engines.node.trim()) return { version: engines.node.trim(), source: 'package.json engines.node' };
  } catch {
    // no readable package.json: nothing declared
  }
  return undefined;
}

/** The python version the project declares: .python-version, then pyproject.toml's requires-python. */
export function declaredPython(workspace: string): Declared | undefined {
  const pinned = read(join(workspace, '.python-version'))?.split('\n')[0]?.trim();
  if (pinned) return { version: pinned, source: '.python-version' };
  const requires = /^\s*requires-python\s*=\s*["']([^"']+)["']/m.exec(read(join(workspace, 'pyproject.toml')) ?? '');
  return requires ? { version: requires[1].trim(), source: 'pyproject.toml requires-python' } : undefined;
}

/** The first executable `name` on PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A run's environment, with what changed in it and why, for the log. */
export interface ShimBypass {
  readonly env: NodeJS.ProcessEnv;
  readonly note: string;
}

/** A pyenv shim as `pyenv init` writes it: the root it exports and the pyenv it hands every start to. */
const PYENV_SHIM = /^export PYENV_ROOT="([^"\n]+)"$[\s\S]*^exec "([^"\n]+\/libexec\/pyenv)" exec "\$program" "\$@"$/m;

/**
 * Where `python3` on the runs' PATH is a pyenv shim: the runs' PATH with the interpreter pyenv picks for the
 * workspace in front, as `pyenv exec` itself puts it (its `.python-version`, `PYENV_VERSION` in the runs'
 * environment, the global version: `pyenv which`, asked once, in the workspace). The shim is a bash script that runs
 * pyenv anew on every start (60–70 ms a process here, each baseline, stage-1 and full run); the runs then start what
 * it would have started, without it. Undefined where python3 is no pyenv shim, or pyenv picks the system's python
 * (`pyenv exec` puts nothing in front then).
 */
export function pyenvShimBypass(workspace: string, env: NodeJS.ProcessEnv): ShimBypass | undefined {
  const shim = onPath('python3', env);
  const script = shim ? read(shim)?.slice(0, 2000) : undefined;
  const match = script ? PYENV_SHIM.exec(script) : null;
  if (!shim || !match) return undefined;
  const [, root, pyenv] = match;
  let target: string;
  try {
    target = execFileSync(pyenv, ['which', 'python3'], { cwd: workspace, env: { ...env, PYENV_ROOT: root }, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    accessSync(target, constants.X_OK);
  } catch {
    return undefined;
  }
  if (!target.startsWith(join(root, 'versions') + sep)) return undefined;
  const bin = dirname(target);
  const path = [bin, ...(env.PATH ?? '').split(delimiter).filter((dir) => dir && dir !== bin)].join(delimiter);
  return { env: { ...env, PATH: path }, note: `python3 on PATH is pyenv's shim (${shim}): the runs start the python pyenv picks for this workspace directly, with ${bin} first on their PATH as \`pyenv exec\` puts it, without the shim's start-up in every run` };
}

/** `node --version` / `python3 --version`, without spawning for the node this process runs on. */
export const versionOf: VersionOf = (path, tool) => {
  try {
    if (tool === 'node' && realpathSync(path) === realpathSync(process.execPath)) return process.version;
    const out = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] });
    return out.trim().replace(/^Python /, '') || undefined;
  } catch {
    return undefined;
  }
};

/** The version managers installed for the user that can provide `tool` (seen by their folders or programs). */
export function versionManagers(tool: Tool, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const found: string[] = [];
  const has = (name: string, folder?: string) => onPath(name, env) !== undefined || (folder !== undefined && existsSync(folder));
  if (tool === 'node') {
    if (has('nvm', env.NVM_DIR || join(home, '.nvm'))) found.push('nvm');
    if (has('fnm')) found.push('fnm');
    if (has('volta', env.VOLTA_HOME || join(home, '.volta'))) found.push('volta');
  } else if (has('pyenv', env.PYENV_ROOT || join(home, '.pyenv'))) found.push('pyenv');
  if (has('asdf', join(home, '.asdf'))) found.push('asdf');
  if (has('mise')) found.push('mise');
  return found;
}

/** Whether `actual` (v20.1.0, 3.11.7) plainly meets `declared` (20, v20.1, >=18, ^20, 3.11, >=3.8); unsure counts as met. */
export function satisfies(actual: string, declared: string): boolean {
  const parts = (text: string) => (/(\d+)(?:\.(\d+))?/.exec(text) ?? []).slice(1).filter(Boolean).map(Number);
  const [have, want] = [parts(actual), parts(declared)];
  if (want.length === 0 || have.length === 0) return true;
  if (/^\s*>=?/.test(declared)) return have[0] > want[0] || (have[0] === want[0] && (want[1] === undefined || (have[1] ?? 0) >= want[1]));
  if (/[<|*x ]/.test(declared)) return true; // ranges this does not read: say nothing rather than something wrong
  return want.every((n, i) => have[i] === n);
}

/**
 * One line per tool the runs use: its path and version, and, once, the version the project declares when that is
 * another, with the version managers the user has that could provide it (the runs do not switch: they use PATH's).
 */
export function toolchainLines(workspace: string, tools: readonly Tool[], env: NodeJS.ProcessEnv, version: VersionOf = versionOf): string[] {
  const lines: string[] = [];
  for (const tool of tools) {
    const path = onPath(tool === 'node' ? 'node' : 'python3', env) ?? (tool === 'python' ? onPath('python', env) : undefined);
    if (!path) {
      lines.push(`toolchain: no ${tool} on the runs' PATH`);
      continue;
    }
    const actual = version(path, tool);
    let line = `toolchain: ${tool} ${actual ?? '(version unknown)'} (${path})`;
    const declared = tool === 'node' ? declaredNode(workspace) : declaredPython(workspace);
    if (declared && actual && !satisfies(actual, declared.version)) {
      const managers = versionManagers(tool, env);
      const how = managers.length > 0 ? `; ${managers.join(', ')} ${managers.length === 1 ? 'is' : 'are'} installed and could provide it, but the runs use the ${tool} on PATH` : '; no version manager that could provide it was found';
      line += ` — the project declares ${tool} ${declared.version} (${declared.source})${how}`;
    }
    lines.push(line);
  }
  return lines;
}
