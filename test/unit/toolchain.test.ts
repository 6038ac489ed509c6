// The toolchain line: which node/python the runs use, and the version the project declares when it is another.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { declaredNode, declaredPython, pyenvShimBypass, satisfies, toolchainLines } from '../../src/core/testCommand/toolchain';
import { workspaceMaker } from './helpers/workspace';

const workspace = workspaceMaker();

/** An executable file (a stand-in program or a shim), its folder made as needed. */
function executable(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** A PATH folder with executables of these names (never run: the version is injected) and a HOME without managers. */
function fakeTools(...names: string[]): NodeJS.ProcessEnv {
  const home = workspace({});
  mkdirSync(join(home, 'bin'));
  for (const name of names) executable(join(home, 'bin', name), '#!/bin/sh\n');
  return { PATH: join(home, 'bin'), HOME: home };
}

describe('toolchain', () => {
  it('reads what the project declares', () => {
    const ws = workspace({ '.nvmrc': 'v18.19.0\n', 'package.json': JSON.stringify({ engines: { node: '>=16' } }), 'pyproject.toml': '[project]\nrequires-python = ">=3.12"\n' });
    assert.deepEqual(declaredNode(ws), { version: 'v18.19.0', source: '.nvmrc' });
    assert.deepEqual(declaredPython(ws), { version: '>=3.12', source: 'pyproject.toml requires-python' });
  });

  it('compares plainly and stays quiet where unsure', () => {
    assert.ok(satisfies('v20.1.0', '20'));
    assert.ok(!satisfies('v20.1.0', 'v18.19.0'));
    assert.ok(satisfies('v20.1.0', '>=18'));
    assert.ok(!satisfies('3.11.7', '>=3.12'));
    assert.ok(satisfies('3.11.7', '3.11'));
    assert.ok(satisfies('v20.1.0', '^18 || ^20'));
  });

  it('names the path and version, and once the declared one with the managers found', () => {
    const env = fakeTools('node', 'python3', 'fnm');
    const ws = workspace({ '.nvmrc': '18\n', '.python-version': '3.11\n' });
    const lines = toolchainLines(ws, ['node', 'python'], env, (_, tool) => (tool === 'node' ? 'v20.20.2' : '3.11.7'));
    assert.equal(lines[0], `toolchain: node v20.20.2 (${env.PATH}/node) — the project declares node 18 (.nvmrc); fnm is installed and could provide it, but the runs use the node on PATH`);
    assert.equal(lines[1], `toolchain: python 3.11.7 (${env.PATH}/python3)`);
    assert.deepEqual(toolchainLines(ws, ['node'], fakeTools()), ["toolchain: no node on the runs' PATH"]);
  });
});

/**
 * A pyenv layout as `pyenv rehash` makes it: a shim that hands every start to `<root>/libexec/pyenv exec`, and a
 * stand-in for pyenv's `version-name` that answers in pyenv's order (PYENV_VERSION, else the nearest .python-version
 * from the folder it runs in up, else the root's global version; a version it lacks is an error).
 */
function pyenvLayout(): { root: string; env: NodeJS.ProcessEnv } {
  const root = workspace({ version: '3.11.7\n' });
  for (const version of ['3.11.7', '3.12.1']) executable(join(root, 'versions', version, 'bin', 'python3'), '#!/bin/sh\n');
  const pyenv = [
    '#!/bin/sh',
    '[ "$1" = version-name ] || exit 2',
    'v=$PYENV_VERSION',
    'd=$PWD',
    'while [ -z "$v" ] && [ -n "$d" ]; do [ -f "$d/.python-version" ] && v=$(head -n 1 "$d/.python-version"); d=${d%/*}; done',
    '[ -n "$v" ] || v=$(cat "$PYENV_ROOT/version")',
    'case "$v" in system|*:*) echo "$v"; exit 0;; esac',
    '[ -d "$PYENV_ROOT/versions/$v" ] || { echo "pyenv: version $v is not installed" >&2; exit 1; }',
    'echo "$v"',
    '',
  ].join('\n');
  executable(join(root, 'libexec', 'pyenv'), pyenv);
  const shim = ['#!/usr/bin/env bash', 'set -e', 'program="${0##*/}"', '', `export PYENV_ROOT="${root}"`, `exec "${root}/libexec/pyenv" exec "$program" "$@"`, ''].join('\n');
  executable(join(root, 'shims', 'python3'), shim);
  return { root, env: { PATH: [join(root, 'shims'), '/usr/bin', '/bin'].join(':'), HOME: root } };
}

describe('a pyenv shim on the runs\' PATH', () => {
  it('is passed over: the runs get what pyenv exec sets up for the version it picks for the workspace', () => {
    const { root, env } = pyenvLayout();
    const ws = workspace({ '.python-version': '3.12.1\n' });
    const bypass = pyenvShimBypass(ws, env);
    assert.equal(bypass?.env.PATH, [join(root, 'versions', '3.12.1', 'bin'), join(root, 'shims'), '/usr/bin', '/bin'].join(':'));
    assert.equal(bypass?.env.PYENV_VERSION, '3.12.1', 'for the shims a run starts in turn');
    assert.match(bypass?.note ?? '', /python3 on PATH is pyenv's shim .*: the runs start pyenv's python for this workspace \(3\.12\.1\) directly/);
    assert.match(toolchainLines(ws, ['python'], bypass?.env ?? {}, () => '3.12.1')[0], new RegExp(`^toolchain: python 3\\.12\\.1 \\(${join(root, 'versions', '3.12.1', 'bin', 'python3')}\\)$`));
  });

  it('asks pyenv in its order: PYENV_VERSION, the nearest .python-version up from the workspace, the global version', () => {
    const { root, env } = pyenvLayout();
    const first = (e: NodeJS.ProcessEnv, ws: string) => pyenvShimBypass(ws, e)?.env.PATH?.split(':')[0];
    const pinned = workspace({ '.python-version': '3.12.1\n', 'svc/app.py': '' });
    const plain = workspace({});
    assert.equal(first(env, plain), join(root, 'versions', '3.11.7', 'bin'));
    assert.equal(first(env, join(pinned, 'svc')), join(root, 'versions', '3.12.1', 'bin'), "a folder above the workspace pins it, as in the user's terminal");
    assert.equal(first({ ...env, PYENV_VERSION: '3.11.7' }, pinned), join(root, 'versions', '3.11.7', 'bin'));
  });

  it('keeps a command found ahead of the shims ahead of them', () => {
    const { root, env } = pyenvLayout();
    const ws = workspace({});
    assert.equal(pyenvShimBypass(ws, { ...env, PATH: `/opt/early:${env.PATH}` })?.env.PATH, ['/opt/early', join(root, 'versions', '3.11.7', 'bin'), join(root, 'shims'), '/usr/bin', '/bin'].join(':'));
  });

  it('is left as it is where pyenv picks the system python, several versions, one it lacks, or python3 is no pyenv shim', () => {
    const { env } = pyenvLayout();
    for (const pinned of ['system', '3.11.7:3.12.1', '3.9.1']) {
      const ws = workspace({ '.python-version': `${pinned}\n` });
      assert.equal(pyenvShimBypass(ws, env), undefined, pinned);
    }
    const ws = workspace({});
    assert.equal(pyenvShimBypass(ws, fakeTools('python3')), undefined);
  });
});
