// Model providers through the extension in a real VS Code without any chat model: clear messages, and the fallback wiring.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { VerifiedFixApi } from '../../../src/host/testApi';
import { clearSettings, openSumJs, quickSettings, selectLine, setSettings, suggest, verifiedFix } from './helpers';

const noModel = /No chat model is available in VS Code/;

describe('Model providers without a chat model', function () {
  this.timeout(240_000);
  let api: VerifiedFixApi;

  before(async () => {
    api = await verifiedFix();
    selectLine(await openSumJs(), 7);
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await clearSettings();
    await setSettings({ provider: undefined, fallbackProvider: undefined });
  });

  it('"Select Model" says there is none and what to do', async () => {
    assert.equal(await vscode.commands.executeCommand('verifiedFix.selectModel'), undefined);
    assert.match(api.shownMessages().at(-1) ?? '', noModel);
  });

  it('a vscode-lm request ends with that message, not a crash', async () => {
    await setSettings({ ...quickSettings, provider: 'vscode-lm', testCommand: 'node -e "process.exit(1)"' });
    assert.equal(await suggest(), undefined);
    assert.match(api.shownMessages().at(-1) ?? '', noModel);
  });

  it('asks the fallback provider only when no candidate of the first is verified', async () => {
    await setSettings({ ...quickSettings, confirmRuns: 1, provider: 'mutation', fallbackProvider: 'vscode-lm' });
    const fixed = await suggest();
    assert.ok(fixed && fixed.verified.length > 0, 'mutants fix the bug, so vscode-lm is never asked');
    await setSettings({ testCommand: 'node -e "process.exit(1)"' });
    const shown = api.shownMessages().length;
    assert.equal(await suggest(), undefined, 'no mutant passes, so vscode-lm is asked and has no model');
    assert.ok(api.shownMessages().slice(shown).some((m) => noModel.test(m)), JSON.stringify(api.shownMessages().slice(shown)));
  });
});
