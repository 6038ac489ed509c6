// The toolchain line: which node/python the runs use, and the version the project declares when it is another.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { declaredNode, declaredPython, satisfies, toolchainLines } from '../../src/core/testCommand/toolchain';
import { makeWorkspace, remove } from './helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

/** A PATH folder with executables of these names (never run: the version is injected) and a HOME without managers. */
function fakeTools(...names: string[]): NodeJS.ProcessEnv {
  const home = makeWorkspace({});
  made.push(home);
  mkdirSync(join(home, 'bin'));
  for (const name of names) {
    writeFileSync(join(home, 'bin', name), '#!/bin/sh\n');
    chmodSync(join(home, 'bin', name), 0o755);
  }
  return { PATH: join(home, 'bin'), HOME: home };
}

describe('toolchain', () => {
  it('reads what the project declares', () => {
    const ws = makeWorkspace({ '.nvmrc': 'v18.19.0\n', 'package.json': JSON.stringify({ engines: { node: '>=16' } }), 'pyproject.toml': '[project]\nrequires-python = ">=3.12"\n' });
    made.push(ws);
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
    const ws = makeWorkspace({ '.nvmrc': '18\n', '.python-version': '3.11\n' });
    made.push(ws);
    const lines = toolchainLines(ws, ['node', 'python'], env, (_, tool) => (tool === 'node' ? 'v20.20.2' : '3.11.7'));
    assert.equal(lines[0], `toolchain: node v20.20.2 (${env.PATH}/node) — the project declares node 18 (.nvmrc); fnm is installed and could provide it, but the runs use the node on PATH`);
    assert.equal(lines[1], `toolchain: python 3.11.7 (${env.PATH}/python3)`);
    assert.deepEqual(toolchainLines(ws, ['node'], fakeTools()), ["toolchain: no node on the runs' PATH"]);
  });
});
