// What a sandboxed run must not see: credential files under home, the editor's secret storage, and the sockets
// that reach agents and daemons (a reachable Docker socket is root on the host).
import { lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';

/**
 * Relative to home. Toolchains installed under home (nvm, pyenv, cargo's bin, go) are not here: tests need them.
 * Editors keep secrets in their globalStorage (state database) or a keyring.
 */
const HOME_CREDENTIALS: readonly string[] = [
  '.ssh', '.aws', '.azure', '.config/gcloud', '.kube', '.docker', '.gnupg', '.netrc', '.npmrc', '.yarnrc.yml', '.pypirc',
  '.git-credentials', '.config/gh', '.config/hub', '.config/git/credentials', '.cargo/credentials', '.cargo/credentials.toml',
  '.m2/settings.xml', '.gradle/gradle.properties', '.config/containers/auth.json', '.local/share/keyrings', '.password-store',
  '.config/Code/User/globalStorage', '.config/Code - Insiders/User/globalStorage', '.config/Code - OSS/User/globalStorage',
  '.config/VSCodium/User/globalStorage', '.config/Cursor/User/globalStorage', '.local/share/code-server/User/globalStorage',
  '.vscode-server/data/User/globalStorage', '.vscode-remote/data/User/globalStorage',
  // Coding assistants' and model hubs' tokens, database and vault credentials, shells' histories (pasted secrets), and
  // a .gitconfig that may hold an extraheader or a credential helper's token.
  '.config/github-copilot', '.config/anthropic', '.claude', '.claude.json', '.codeium', '.continue', '.cursor', '.aider.conf.yml',
  '.config/openai', '.cache/huggingface/token', '.huggingface/token', '.config/huggingface', '.pgpass', '.my.cnf', '.vault-token',
  '.bash_history', '.zsh_history', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history',
  '.local/share/fish/fish_history', '.gitconfig', '.config/git/config', '.terraform.d/credentials.tfrc.json', '.s3cfg', '.boto',
  '.databrickscfg', '.config/rclone', '.config/op', '.config/heroku', '.config/doctl', '.config/sops', '.config/gh-copilot',
];

/** Variables naming a credential file or folder (a list, for KUBECONFIG): their targets are hidden wherever they are. */
const CREDENTIAL_FILE_VARIABLES: readonly string[] = [
  'KUBECONFIG', 'DOCKER_CONFIG', 'GOOGLE_APPLICATION_CREDENTIALS', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE', 'PGPASSFILE',
  'NETRC', 'HISTFILE', 'AZURE_CONFIG_DIR', 'CLOUDSDK_CONFIG', 'NPM_CONFIG_USERCONFIG', 'npm_config_userconfig', 'PIP_CONFIG_FILE', 'GIT_CONFIG_GLOBAL',
];

/** Folders holding daemon and agent sockets; hidden unless the user allowed network. */
const RUNTIME_SOCKET_FOLDERS: readonly string[] = ['/run', '/var/run'];

/**
 * Relative to home: where container VMs put the Docker socket (Colima, Lima, Rancher Desktop, OrbStack). Hidden as
 * folders, so a socket bound there after a run started (which the listing at its start misses) is out of reach too.
 */
const HOME_SOCKET_FOLDERS: readonly string[] = ['.colima', '.lima', '.rd', '.orbstack'];

/**
 * Temp folders every namespaced run gets empty and private, as /tmp: /var/tmp is where a daemon binds a socket when
 * /tmp is private to it (systemd's PrivateTmp), and a socket bound after the run started is not in its listing.
 * Only real folders: a /var/tmp that links to /tmp is covered with it.
 */
export function privateTempFolders(): string[] {
  return ['/tmp', ...(kindOf('/var/tmp') === 'folder' ? ['/var/tmp'] : [])];
}

/** Variables naming a socket (a path, or a `unix:` address). */
const SOCKET_VARIABLES: readonly string[] = ['SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST', 'CONTAINER_HOST', 'GPG_AGENT_INFO', 'WAYLAND_DISPLAY'];

export interface HiddenPaths {
  /** Folders to cover with an empty tmpfs. */
  readonly folders: readonly string[];
  /** Files (and sockets) to cover with an empty read-only file. */
  readonly files: readonly string[];
}

function kindOf(path: string): 'folder' | 'file' | undefined {
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return undefined; // its target is covered where it lives, or is not ours to cover
    return stats.isDirectory() ? 'folder' : 'file';
  } catch {
    return undefined;
  }
}

/**
 * The path with its folder's links resolved (the last part is left alone: a link there is not reported). Mounts land
 * on the resolved path anyway, and `/var/run/docker.sock` must be seen as inside `/run`: once `/run` is an empty tmpfs,
 * a mount on the unresolved path finds nothing there and fails.
 */
function withRealFolder(path: string): string | undefined {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return undefined;
  }
}

function socketPath(name: string, value: string): string | undefined {
  let path = value;
  if (name === 'DBUS_SESSION_BUS_ADDRESS') path = /(?:^|[;,])unix:path=([^,;]+)/.exec(value)?.[1] ?? '';
  else if (name === 'GPG_AGENT_INFO') path = value.split(':')[0];
  else if (name === 'WAYLAND_DISPLAY') path = isAbsolute(value) ? value : '';
  else path = value.replace(/^unix:\/\//, '');
  return isAbsolute(path) ? path : undefined;
}

/** The existing paths to hide for a run in `env`, home taken from `env.HOME` (else the OS's). */
export function hiddenPaths(env: NodeJS.ProcessEnv, allowNetwork: boolean): HiddenPaths {
  const folders: string[] = [];
  const files: string[] = [];
  const add = (given: string) => {
    const path = withRealFolder(given);
    if (path === undefined) return;
    const kind = kindOf(path);
    if (kind === 'folder') folders.push(path);
    else if (kind === 'file') files.push(path);
  };
  const home = env.HOME || homedir();
  if (home && home !== '/') for (const rel of HOME_CREDENTIALS) add(join(home, rel));
  for (const name of CREDENTIAL_FILE_VARIABLES) {
    for (const path of (env[name] ?? '').split(':')) if (isAbsolute(path) && path !== '/' && path !== home) add(path);
  }
  if (!allowNetwork) {
    for (const folder of RUNTIME_SOCKET_FOLDERS) add(folder);
    if (home && home !== '/') for (const rel of HOME_SOCKET_FOLDERS) add(join(home, rel));
    if (env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR)) add(env.XDG_RUNTIME_DIR);
    for (const name of SOCKET_VARIABLES) {
      const path = env[name] ? socketPath(name, env[name]) : undefined;
      if (path) add(path);
    }
  }
  // A path inside a folder that is already covered needs no mount of its own.
  const covered = (path: string) => folders.some((folder) => path !== folder && path.startsWith(`${folder}/`));
  return { folders: [...new Set(folders)].filter((f) => !covered(f)), files: [...new Set(files)].filter((f) => !covered(f)) };
}

/** `hiddenInTree` split by what covers each entry: an empty folder, or an empty file. Links and missing entries are left out. */
export function splitByKind(paths: readonly string[]): HiddenPaths {
  const folders: string[] = [];
  const files: string[] = [];
  for (const path of paths) {
    const kind = kindOf(path);
    if (kind === 'folder') folders.push(path);
    else if (kind === 'file') files.push(path);
  }
  return { folders, files };
}

/** A workspace's entries a run must not see: `.git` (CI checkouts keep a token in its config) and untracked `.env*`. */
export function workspaceSecrets(workspace: string, names: readonly string[], tracked: ReadonlySet<string>): string[] {
  return names.filter((name) => name === '.git' || (/^\.env/.test(name) && !tracked.has(name))).map((name) => join(workspace, name));
}
