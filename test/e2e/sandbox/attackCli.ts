// What the attack suites through the real CLI share: the CLI run as another user, folders that user owns, the mocha
// project they attack, and the sandbox flags of each mode (the container's engine and image, where they exist here).
import { cpSync, mkdirSync, mkdtempSync, chmodSync, existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliResult } from '../../unit/helpers/cli';
import { sandboxArgs } from '../../unit/helpers/cli';
import { cliPath, repoRoot } from '../../unit/helpers/paths';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { remove } from '../../unit/helpers/workspace';
import type { BackendChoice } from '../../../src/core/contract/choices';

const isRoot = process.getuid?.() === 0;
/** uid 65534 where this process is root and setpriv exists; the user the CLI runs as in the second pass. */
export const NOBODY = isRoot && existsSync('/usr/bin/setpriv') ? 65534 : undefined;

export function runCliAs(args: readonly string[], env: NodeJS.ProcessEnv, options: { uid?: number; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const { uid, cwd, timeoutMs = 300_000 } = options;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], ...(uid !== undefined ? { uid, gid: uid } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? 99, stdout, stderr });
    });
  });
}

/** A suite's own folder under the host's temp folder (readable by uid 65534), and folders in it owned by a user. */
export function attackFolders(prefix: string): { outside: string; ownedFolder: (name: string, uid?: number) => string; removeAll: () => void } {
  const outside = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(outside, 0o755);
  const ownedFolder = (name: string, uid?: number) => {
    const dir = join(outside, name);
    mkdirSync(dir, { recursive: true });
    if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, dir]);
    return dir;
  };
  return { outside, ownedFolder, removeAll: () => remove(outside) };
}

/** The CLI's environment: its own temp root and home, no agent or daemon socket of the machine running the suite. */
export function baseEnv(tempRoot: string, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, VERIFIED_FIX_TMPDIR: tempRoot };
  delete env.NODE_TEST_CONTEXT;
  for (const name of ['SSH_AUTH_SOCK', 'DOCKER_HOST', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR']) delete env[name];
  return env;
}

export interface Json {
  candidates: Array<{ status: string; reason?: string; verified: boolean }>;
  verified: number[];
}

export const mochaProject = {
  'package.json': '{"name": "answer", "private": true}\n',
  'src/answer.js': 'function answer() { return 41; }\nmodule.exports = { answer };\n',
  'test/answer.test.js': "const assert = require('node:assert');\nconst { answer } = require('../src/answer');\nit('answer', () => assert.strictEqual(answer(), 42));\n",
};
export const GOOD = 'function answer() { return 42; }';
export const WRONG = 'function answer() { return 41; }';

const IMAGE = process.env.VERIFIED_FIX_IMAGE || 'localhost/verified-fix-test:1';
const ENGINE = process.env.VERIFIED_FIX_CONTAINER_ENGINE === 'docker' ? 'docker' : 'podman';
/** The mocha the container runs from the workspace's own node_modules (the image has none, and no host folder). */
const CONTAINER_MOCHA = 'mocha-10';

/** Why the container cases cannot run here (no engine, no image, no cached mocha), or undefined. */
export function containerSkip(): string | undefined {
  if (spawnSync(ENGINE, ['version'], { stdio: 'ignore' }).status !== 0) return `${ENGINE} is not installed or does not answer here (run .ci/install-containers.sh)`;
  if (spawnSync(ENGINE, ['image', 'inspect', IMAGE], { stdio: 'ignore' }).status !== 0) return `the image ${IMAGE} is missing (bash scripts/container-image.sh builds it)`;
  return cachedRunner(CONTAINER_MOCHA, 'mocha') ? undefined : missingRunner(CONTAINER_MOCHA);
}

/** `--sandbox BACKEND` with what the mode needs: the opt-in of the process group as root, the container's engine and image. */
export function modeArgs(backend: BackendChoice): string[] {
  return backend === 'container' ? ['--sandbox', 'container', '--container-engine', ENGINE, '--container-image', IMAGE] : sandboxArgs(backend);
}

/**
 * The test command that runs the mocha project's test, by a path the engine does not take for mocha (so it adds no
 * flag of its own: what is tested is the containment). The container sees only the workspace: mocha is copied into its
 * node_modules there (gitignored, linked into each copy); the other modes run the project's own mocha.
 */
export function mochaCommand(backend: BackendChoice, ws: string): string {
  if (backend !== 'container') return `node ${join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js')} test/answer.test.js`;
  cpSync(cachedRunner(CONTAINER_MOCHA, 'mocha') ?? '', join(ws, 'node_modules'), { recursive: true });
  return 'node node_modules/mocha/bin/mocha.js test/answer.test.js';
}
