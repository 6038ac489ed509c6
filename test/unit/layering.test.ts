// The engine and the CLI must not import `vscode`: the lint rule that enforces it really fires.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { repoRoot } from './helpers/paths';

const root = repoRoot;

describe('layering lint rule', () => {
  const eslint = new ESLint({ cwd: root });
  const source = "import * as vscode from 'vscode';\nexport const x = vscode;\n";

  for (const file of ['src/core/anything.ts', 'src/cli/anything.ts']) {
    it(`fails ${file} when it imports vscode`, async () => {
      const [result] = await eslint.lintText(source, { filePath: join(root, file) });
      assert.ok(result.messages.some((m) => m.ruleId === 'no-restricted-imports'), JSON.stringify(result.messages));
    });
  }

  it('allows vscode under src/host', async () => {
    const [result] = await eslint.lintText(source, { filePath: join(root, 'src/host/anything.ts') });
    assert.ok(!result.messages.some((m) => m.ruleId === 'no-restricted-imports'));
  });
});
