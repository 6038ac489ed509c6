// The layers hold: no vscode in the engine or the CLI, no import cycle at file or folder level, each core folder
// imports only lower layers (by lint and by the real graph), and the option table loads next to nothing.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { cycles, fileGraph, folderGraph, runtimeClosure } from './helpers/importGraph';
import { repoRoot } from './helpers/paths';

const root = repoRoot;

async function coreLayers(): Promise<string[][]> {
  // A computed URL: the bundler must leave the lint config to be loaded as it is.
  const url = pathToFileURL(join(root, 'eslint.config.mjs')).href;
  return ((await import(url)) as { CORE_LAYERS: string[][] }).CORE_LAYERS;
}

describe('layering lint rule', () => {
  const eslint = new ESLint({ cwd: root });
  const vscodeSource = "import * as vscode from 'vscode';\nexport const x = vscode;\n";
  const restricted = async (file: string, source: string) => {
    const [result] = await eslint.lintText(source, { filePath: join(root, file) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports');
  };

  for (const file of ['src/core/engine/anything.ts', 'src/core/base/anything.ts', 'src/cli/anything.ts']) {
    it(`fails ${file} when it imports vscode`, async () => {
      assert.equal((await restricted(file, vscodeSource)).length, 1);
    });
  }

  it('allows vscode under src/host', async () => {
    assert.deepEqual(await restricted('src/host/anything.ts', vscodeSource), []);
  });

  it('fails a lower layer that imports a higher one, and a core file that imports a front end', async () => {
    assert.equal((await restricted('src/core/base/anything.ts', "import { runFix } from '../engine/runFix';\nexport const x = runFix;\n")).length, 1);
    assert.equal((await restricted('src/core/contract/anything.ts', "import type { Verifier } from '../verification/verifier';\nexport type X = Verifier;\n")).length, 1);
    assert.equal((await restricted('src/core/execution/anything.ts', "import { x } from '../request/checkRequest';\nexport const y = x;\n")).length, 1, 'same layer');
    assert.equal((await restricted('src/core/engine/anything.ts', "import { x } from '../../host/log';\nexport const y = x;\n")).length, 1);
  });

  it('allows a higher layer to import a lower one and a folder to import itself', async () => {
    assert.deepEqual(await restricted('src/core/engine/anything.ts', "import { UserError } from '../base/errors';\nimport { x } from './candidatePool';\nexport const y = [UserError, x];\n"), []);
  });
});

describe('import graph', () => {
  it('has no file at the src/core root: every file belongs to a stage', () => {
    assert.deepEqual(readdirSync(join(root, 'src/core')).filter((name) => name.endsWith('.ts')), []);
  });

  it('has no cycle between files of src (type imports included)', () => {
    assert.deepEqual(cycles(fileGraph(root, 'src')), []);
  });

  it('has no cycle between the folders of src/core', () => {
    assert.deepEqual(cycles(folderGraph(fileGraph(root, 'src/core'), 'src/core')), []);
  });

  it('gives every core folder a layer, and every import between folders goes down the layers', async () => {
    const layers = await coreLayers();
    const rank = new Map(layers.flatMap((layer, i) => layer.map((folder) => [folder, i] as const)));
    const folders = readdirSync(join(root, 'src/core'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    assert.deepEqual(folders.filter((folder) => !rank.has(folder)), [], 'folders missing from CORE_LAYERS in eslint.config.mjs');
    const upward: string[] = [];
    for (const [from, targets] of folderGraph(fileGraph(root, 'src/core'), 'src/core')) {
      for (const to of targets) if (rank.get(to)! >= rank.get(from)!) upward.push(`${from} → ${to}`);
    }
    assert.deepEqual(upward, []);
  });

  it('loads the option table with at most 3 files at run time (its choices, not their implementations)', () => {
    const closure = runtimeClosure(root, 'src/core/request/options.ts');
    assert.ok(closure.length <= 3, closure.join(', '));
  });

  it('src/core imports neither the extension nor the CLI', () => {
    const graph = fileGraph(root, 'src');
    const crossing = [...graph].filter(([file]) => file.startsWith('src/core/')).flatMap(([file, targets]) => targets.filter((t) => !t.startsWith('src/core/')).map((t) => `${file} → ${t}`));
    assert.deepEqual(crossing, []);
  });
});

describe('the cycle check itself', () => {
  let planted: string;
  before(() => {
    planted = mkdtempSync(join(tmpdir(), 'vf-layering-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(planted, path, '..'), { recursive: true });
      writeFileSync(join(planted, path), text);
    };
    write('src/core/low/a.ts', "import type { B } from '../high/b';\nexport type A = B;\n");
    write('src/core/high/b.ts', "import { c } from './c';\nexport type B = typeof c;\n");
    write('src/core/high/c.ts', "import type { A } from '../low/a';\nexport const c: A | undefined = undefined;\n");
    write('src/core/high/d.ts', "export const d = 1;\n");
  });
  after(() => rmSync(planted, { recursive: true, force: true }));

  it('finds a planted cycle of type imports at file and folder level', () => {
    const files = fileGraph(planted, 'src');
    assert.deepEqual(cycles(files), [['src/core/high/b.ts', 'src/core/high/c.ts', 'src/core/low/a.ts']]);
    assert.deepEqual(cycles(folderGraph(files, 'src/core')), [['high', 'low']]);
  });

  it('follows only runtime imports for the closure', () => {
    assert.deepEqual(runtimeClosure(planted, 'src/core/high/b.ts'), ['src/core/high/b.ts', 'src/core/high/c.ts']);
  });
});
