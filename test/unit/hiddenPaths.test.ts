// What a run must not see: credential files under a real temp home, agent sockets and runtime folders; toolchains stay.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hiddenPaths } from '../../src/core/security/hiddenPaths';
import { remove } from './helpers/workspace';

// Resolved: reported paths have their folders' links resolved, and tmpdir() may sit behind one.
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'vf-hidden-')));
const home = join(outside, 'home');
const runtime = join(outside, 'runtime');
const agents = join(outside, 'agents');
const servers: Server[] = [];

function file(path: string, content = 'x'): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function folder(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}

async function socket(path: string): Promise<string> {
  mkdirSync(dirname(path), { recursive: true });
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return path;
}

/** Real system folders hidden without network (this machine's /run, unless it is a link). */
function systemRuntimeFolders(): string[] {
  return ['/run', '/var/run'].filter((path) => {
    try {
      const stats = lstatSync(path);
      return stats.isDirectory() && !stats.isSymbolicLink();
    } catch {
      return false;
    }
  });
}

let sshSock = '';
let dbusSock = '';
let runtimeSock = '';
let dockerSock = '';

before(async () => {
  folder(join(home, '.ssh'));
  file(join(home, '.ssh', 'id_ed25519'));
  file(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=x\n');
  file(join(home, '.aws', 'credentials'));
  folder(join(home, '.config', 'gcloud'));
  file(join(home, '.cargo', 'credentials.toml'));
  // Toolchains tests need: never hidden.
  file(join(home, '.nvm', 'versions', 'node', 'v20', 'bin', 'node'));
  file(join(home, '.cargo', 'bin', 'cargo'));
  file(join(home, '.pyenv', 'shims', 'python3'));
  // A link to credentials elsewhere: its target is hidden where it lives, or not ours to hide.
  folder(join(outside, 'kube-real'));
  symlinkSync(join(outside, 'kube-real'), join(home, '.kube'));
  folder(runtime);
  sshSock = await socket(join(agents, 'ssh-agent.sock'));
  dbusSock = await socket(join(agents, 'bus'));
  runtimeSock = await socket(join(runtime, 'docker.sock'));
  symlinkSync(join(outside, 'runtime'), join(outside, 'runtime-link'));
  dockerSock = join(outside, 'runtime-link', 'docker.sock');
});

after(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  remove(outside);
});

const homeFolders = () => [join(home, '.ssh'), join(home, '.aws'), join(home, '.config/gcloud')];
const homeFiles = () => [join(home, '.npmrc'), join(home, '.cargo/credentials.toml')];
const sorted = (paths: readonly string[]) => [...paths].sort();

describe('hiddenPaths', () => {
  it('with network allowed: only credential files under home, never sockets or runtime folders', () => {
    const env = { HOME: home, XDG_RUNTIME_DIR: runtime, SSH_AUTH_SOCK: sshSock, DBUS_SESSION_BUS_ADDRESS: `unix:path=${dbusSock}` };
    const hidden = hiddenPaths(env, true);
    assert.deepEqual(sorted(hidden.folders), sorted(homeFolders()));
    assert.deepEqual(sorted(hidden.files), sorted(homeFiles()));
  });

  it('without network: also the runtime folders and the agent sockets', () => {
    const env = { HOME: home, XDG_RUNTIME_DIR: runtime, SSH_AUTH_SOCK: sshSock, DBUS_SESSION_BUS_ADDRESS: `unix:path=${dbusSock},guid=0123abcd` };
    const hidden = hiddenPaths(env, false);
    assert.deepEqual(sorted(hidden.folders), sorted([...homeFolders(), ...systemRuntimeFolders(), runtime]));
    assert.deepEqual(sorted(hidden.files), sorted([...homeFiles(), sshSock, dbusSock]));
  });

  it('never hides toolchains under home', () => {
    const hidden = hiddenPaths({ HOME: home }, false);
    const all = [...hidden.folders, ...hidden.files];
    for (const toolchain of ['.nvm', '.cargo', '.cargo/bin', '.pyenv']) {
      assert.ok(!all.some((path) => path === join(home, toolchain) || join(home, toolchain).startsWith(`${path}/`)), `${toolchain} is hidden: ${all.join(', ')}`);
    }
  });

  it('does not report symlinks (a linked ~/.kube, a linked agent socket)', () => {
    symlinkSync(sshSock, join(agents, 'ssh-link.sock'));
    const hidden = hiddenPaths({ HOME: home, SSH_AUTH_SOCK: join(agents, 'ssh-link.sock') }, false);
    assert.ok(!hidden.folders.includes(join(home, '.kube')));
    assert.ok(!hidden.files.includes(join(agents, 'ssh-link.sock')));
  });

  it('does not repeat a path inside a folder that is already hidden', () => {
    const env = { HOME: home, XDG_RUNTIME_DIR: runtime, SSH_AUTH_SOCK: runtimeSock, DOCKER_HOST: `unix://${runtimeSock}` };
    const hidden = hiddenPaths(env, false);
    assert.ok(hidden.folders.includes(runtime));
    assert.ok(!hidden.files.includes(runtimeSock), hidden.files.join(', '));
    assert.ok(!hidden.folders.includes(join(home, '.ssh', 'id_ed25519')) && !hidden.files.includes(join(home, '.ssh', 'id_ed25519')));
    for (const path of [...hidden.folders, ...hidden.files]) {
      assert.ok(!hidden.folders.some((f) => f !== path && path.startsWith(`${f}/`)), `${path} is inside a hidden folder`);
    }
  });

  it('does not repeat a socket reached through a linked folder inside a hidden one (mounting it would fail)', () => {
    // DOCKER_HOST=unix:///var/run/docker.sock where /var/run links to /run: once /run is an empty tmpfs the path is gone.
    const env = { HOME: home, XDG_RUNTIME_DIR: runtime, DOCKER_HOST: `unix://${dockerSock}` };
    const hidden = hiddenPaths(env, false);
    assert.ok(hidden.folders.includes(runtime));
    assert.ok(!hidden.files.some((path) => path.endsWith('/docker.sock')), hidden.files.join(', '));
  });

  it('reports paths with their folders resolved, so a home reached through a link is still covered', () => {
    symlinkSync(home, join(outside, 'home-link'));
    const hidden = hiddenPaths({ HOME: join(outside, 'home-link') }, true);
    assert.deepEqual(sorted(hidden.folders), sorted(homeFolders()));
    assert.deepEqual(sorted(hidden.files), sorted(homeFiles()));
  });

  it('reads each socket variable in its own format; missing paths and relative values are skipped', () => {
    const env = {
      HOME: join(outside, 'no-such-home'),
      GPG_AGENT_INFO: `${sshSock}:1234:1`,
      DOCKER_HOST: 'tcp://127.0.0.1:2375',
      CONTAINER_HOST: `unix://${dbusSock}`,
      WAYLAND_DISPLAY: 'wayland-0',
      SSH_AUTH_SOCK: join(agents, 'gone.sock'),
      DBUS_SESSION_BUS_ADDRESS: 'unix:abstract=/tmp/dbus-x',
    };
    const hidden = hiddenPaths(env, false);
    assert.deepEqual(sorted(hidden.files), sorted([sshSock, dbusSock]));
    assert.deepEqual(sorted(hidden.folders), sorted(systemRuntimeFolders()));
  });

  it('hides nothing under home when home is /', () => {
    const hidden = hiddenPaths({ HOME: '/' }, true);
    assert.deepEqual(hidden, { folders: [], files: [] });
  });
});
