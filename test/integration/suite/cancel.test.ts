// Cancel in a real VS Code: the request ends at once, its test processes and temporary copies are gone, nothing is counted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { VerifiedFixApi } from '../../../src/host/testApi';
import { clearSettings, openSumJs, selectLine, setSettings, suggest, verifiedFix, waitFor } from './helpers';

/** A word in the hanging test command's arguments, so pgrep finds exactly its processes. */
const marker = 'vf-cancel-marker';

function processesWithMarker(): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** This extension host's request folders under the engine's temp root (VERIFIED_FIX_TMPDIR or <tmp>/verified-fix). */
function requestFolders(): string[] {
  const root = process.env.VERIFIED_FIX_TMPDIR || join(tmpdir(), 'verified-fix');
  return existsSync(root) ? readdirSync(root).filter((name) => name.startsWith(`p${process.pid}-`)) : [];
}

describe('Cancelling a request', function () {
  this.timeout(120_000);
  let api: VerifiedFixApi;

  before(async () => {
    api = await verifiedFix();
  });

  after(clearSettings);

  it('ends every test process and copy at once and leaves the statistics alone', async function () {
    if (process.platform !== 'linux') this.skip(); // pgrep and the temp layout are checked on Linux only
    await setSettings({ samples: 2, k: 1, parallel: 2, testTimeoutSeconds: 120, testCommand: `node -e "setTimeout(() => {}, 60000)" ${marker}` });
    const editor = await openSumJs();
    selectLine(editor, 7);
    const tasksBefore = api.sessionTasks().length;
    const request = suggest();
    await waitFor('the hanging test processes to start', () => processesWithMarker().length > 0, 60_000);
    assert.match(api.statusBar().text, /^\$\(sync~spin\) Verified Fix 0\/2$/, 'the status bar spins during a run');
    assert.equal(await vscode.commands.executeCommand('verifiedFix.cancel'), true);
    const cancelledAt = Date.now();
    const result = await request;
    assert.ok(result);
    assert.equal(result.stoppedEarly?.kind, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 20_000, `cancel took ${Date.now() - cancelledAt} ms`);
    assert.deepEqual(processesWithMarker(), [], 'test processes survived the cancel');
    assert.deepEqual(requestFolders(), [], 'temporary copies survived the cancel');
    assert.equal(api.sessionTasks().length, tasksBefore, 'a cancelled request is not counted');
    assert.ok(api.shownMessages().some((m) => m.startsWith('Cancelled sum.js:7')));
    assert.equal(await vscode.commands.executeCommand('verifiedFix.cancel'), false, 'nothing left to cancel');
  });
});
