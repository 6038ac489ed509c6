// Which node and python the runs use (path and version), what the project declares instead, and which version manager could provide it.
import { execFileSync } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
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

/** A pyenv shim as `pyenv rehash` writes it: the root it exports and the pyenv it hands every start to. */
const PYENV_SHIM = /^export PYENV_ROOT="([^"\n]+)"$[\s\S]*^exec "([^"\n]+\/libexec\/pyenv)" exec "\$program" "\$@"$/m;

/** The first bytes of a file (a shim is a short script; python3 itself may be megabytes). */
function head(path: string, bytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(bytes);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Where `python3` on the runs' PATH is a pyenv shim: the runs' environment as `pyenv exec` sets it up for the program
 * it starts, worked out once. The shim is a bash script that runs pyenv anew on every start (60–70 ms a process here:
 * each baseline, stage-1 and full run). pyenv is asked in the workspace which version it picks (`pyenv version-name`:
 * PYENV_VERSION in the runs' environment, else the nearest `.python-version` from the workspace up, else the global
 * version); as `pyenv exec` does, that version's bin folder goes on PATH (here just before the shims, so a command
 * found ahead of them still is) and PYENV_VERSION names it, for the shims a run may start in turn. A run's copy of the
 * workspace may lack a `.python-version` that the workspace has (in a folder above it, or ignored by git): the shim
 * there picked the global version, this picks what the user's terminal does. Undefined where python3 is no pyenv
 * shim, pyenv picks the system's python (pyenv exec changes nothing then), several versions at once (a command of
 * another version could come first) or one it lacks.
 */
export function pyenvShimBypass(workspace: string, env: NodeJS.ProcessEnv): ShimBypass | undefined {
  const shim = onPath('python3', env);
  const match = shim ? PYENV_SHIM.exec(head(shim, 2048) ?? '') : null;
  if (!shim || !match) return undefined;
  const [, root, pyenv] = match;
  let version: string;
  try {
    version = execFileSync(pyenv, ['version-name'], { cwd: workspace, env: { ...env, PYENV_ROOT: root }, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return undefined;
  }
  if (!version || version === 'system' || version.includes(':') || version.split('/').includes('..')) return undefined;
  const bin = join(root, 'versions', version, 'bin');
  try {
    accessSync(join(bin, 'python3'), constants.X_OK);
  } catch {
    return undefined;
  }
  const dirs = (env.PATH ?? '').split(delimiter);
  const shims = resolve(dirname(shim));
  const path = dirs.flatMap((dir) => (dir && resolve(dir) === shims ? [bin, dir] : [dir])).join(delimiter);
  return {
    env: { ...env, PATH: path, PYENV_VERSION: version },
    note: `python3 on PATH is pyenv's shim (${shim}): the runs start pyenv's python for this workspace (${version}) directly, with ${bin} ahead of the shims on their PATH and PYENV_VERSION=${version}, as \`pyenv exec\` sets them, without the shim's start-up in every run`,
  };
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
