// The statistics panel in a real VS Code: the webview says ready under its CSP and receives the session's numbers.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StatsSnapshot } from '../../../src/shared/protocol';
import type { VerifiedFixApi } from '../../../src/host/testApi';
import { clearSettings, openSumJs, quickSettings, selectLine, setSettings, suggest, verifiedFix, waitFor } from './helpers';

describe('Verified Fix statistics panel', function () {
  this.timeout(240_000);
  let api: VerifiedFixApi;

  before(async () => {
    api = await verifiedFix();
    if (api.snapshot().tasks === 0) {
      // The panel needs a task to show; one quick request on the buggy line makes it.
      await setSettings({ ...quickSettings, confirmRuns: 1 });
      const editor = await openSumJs();
      selectLine(editor, 7);
      assert.ok(await suggest());
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await clearSettings();
    }
  });

  it('receives the session statistics after its ready handshake', async () => {
    const expected = api.snapshot();
    assert.ok(expected.tasks >= 1);
    await vscode.commands.executeCommand('verifiedFix.showPanel');
    const snapshot = await waitFor('a snapshot posted to the panel', () => {
      const last = [...api.panelMessages()].reverse().find((m) => m.type === 'snapshot');
      return last?.type === 'snapshot' && last.snapshot.tasks === expected.tasks ? last.snapshot : undefined;
    }, 60_000);
    assert.equal(snapshot.samples, expected.samples);
    assert.deepEqual(snapshot.headline.map((h) => h.k), expected.headline.map((h) => h.k));
    assert.equal(snapshot.headline[0].passAtK, expected.headline[0].passAtK);
    assert.equal(snapshot.curves.length, Math.max(...snapshot.table.map((t) => t.n)));
    assert.equal(snapshot.grid.length, snapshot.tasks);
  });

  it('matches the status bar', () => {
    const snapshot: StatsSnapshot = api.snapshot();
    const pct = (p: number) => (Number.isFinite(p) ? `${Math.round(p * 100)}%` : '–');
    assert.equal(api.statusBar().text, `$(beaker) ${snapshot.headline.map((h) => `pass@${h.k} ${pct(h.passAtK)}`).join(' · ')}`);
  });

  it('gets a fresh snapshot when the session changes, and Reset empties it', async () => {
    const before = api.panelMessages().length;
    assert.equal(await vscode.commands.executeCommand('verifiedFix.resetSession', true), true);
    await waitFor('an empty snapshot', () => api.panelMessages().slice(before).some((m) => m.type === 'snapshot' && m.snapshot.tasks === 0));
    assert.equal(api.statusBar().visible, false, 'the status bar item hides with no tasks');
  });
});
