// src/host/model must not import `vscode`: the lint rule that keeps it unit-testable really fires.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { repoRoot } from './helpers/paths';

describe('host model lint rule', () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const restricted = (messages: readonly { ruleId: string | null }[]) => messages.some((m) => m.ruleId === 'no-restricted-imports');

  for (const [name, source] of [
    ['a value import', "import * as vscode from 'vscode';\nexport const x = vscode;\n"],
    ['a type-only import', "import type * as vscode from 'vscode';\nexport type X = vscode.Uri;\n"],
  ]) {
    it(`fails a model file with ${name} of vscode`, async () => {
      const [result] = await eslint.lintText(source, { filePath: join(repoRoot, 'src/host/model/anything.ts') });
      assert.ok(restricted(result.messages), JSON.stringify(result.messages));
    });
  }

  it('still allows vscode in the rest of src/host', async () => {
    const [result] = await eslint.lintText("import * as vscode from 'vscode';\nexport const x = vscode;\n", { filePath: join(repoRoot, 'src/host/anything.ts') });
    assert.ok(!restricted(result.messages));
  });

  it('passes every model file as it is', async () => {
    const folder = join(repoRoot, 'src/host/model');
    const files = readdirSync(folder).filter((f) => f.endsWith('.ts')).map((f) => join(folder, f));
    assert.ok(files.length >= 8, files.join(', '));
    for (const result of await eslint.lintFiles(files)) assert.ok(!restricted(result.messages), `${result.filePath}: ${JSON.stringify(result.messages)}`);
  });
});
