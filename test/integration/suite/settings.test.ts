// Settings in a real VS Code: samples, k, the timeouts and bad values reach the request and are reported by name.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { VerifiedFixApi } from '../../../src/host/testApi';
import { clearSettings, openSumJs, selectLine, setSettings, suggest, verifiedFix } from './helpers';

/** A test command that outlives any timeout the tests set. */
const hangingTests = 'node -e "setTimeout(() => {}, 60000)"';

describe('Verified Fix settings', function () {
  this.timeout(240_000);
  let api: VerifiedFixApi;

  before(async () => {
    api = await verifiedFix();
    const editor = await openSumJs();
    selectLine(editor, 7);
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await clearSettings();
  });

  it('declares every setting of issues 5-7 with a description', () => {
    const properties = Object.assign({}, ...vscode.extensions.getExtension('verified-fix.verified-fix')?.packageJSON.contributes.configuration.map((c: { properties: object }) => c.properties));
    const names = [
      'testCommand', 'samples', 'k', 'testTimeoutSeconds', 'totalTimeoutSeconds', 'parallel', 'provider', 'fallbackProvider', 'baselineCheck', 'confirmRuns',
      'isolation.linkedFolders', 'isolation.excludes', 'sandbox.network', 'sandbox.memoryMB', 'endpoint', 'model', 'temperature', 'maxConcurrentRequests',
    ];
    for (const name of names) {
      const property = properties[`verifiedFix.${name}`];
      assert.ok(property, `verifiedFix.${name} is not declared`);
      assert.ok(property.markdownDescription || property.description, `verifiedFix.${name} has no description`);
    }
    assert.equal(properties['verifiedFix.samples'].default, 10);
    assert.equal(properties['verifiedFix.k'].default, 5);
  });

  it('honours samples and the per-run timeout, and reports k > samples and a bad value by name', async () => {
    await setSettings({ samples: 3, k: 5, testTimeoutSeconds: 1, testCommand: hangingTests, confirmRuns: 'twice', parallel: 2 });
    const started = Date.now();
    const result = await suggest();
    assert.ok(result, JSON.stringify(api.shownMessages().slice(-3)));
    assert.equal(result.baseline?.status, 'timeout');
    // The baseline ran out of the 1 s: every candidate would too, so the request stops instead of spending them.
    assert.equal(result.stoppedEarly?.kind, 'baselineTimeout');
    assert.ok(result.candidates.every((c) => c.verdict.status === 'timeout'), JSON.stringify(result.candidates.map((c) => c.verdict.status)));
    assert.ok(api.shownMessages().some((m) => /the tests on the unmodified code timed out \(stopped at \d+\.\d s\).*raise verifiedFix\.testTimeoutSeconds/.test(m)), JSON.stringify(api.shownMessages().slice(-2)));
    assert.ok(Date.now() - started < 60_000, 'the 1 s timeout ended the runs early');
    const problems = api.settingsProblems().join('\n');
    assert.match(problems, /"verifiedFix\.k" \/ --k \(5\) must not exceed "verifiedFix\.samples" \/ --samples \(3\); using 3\./);
    assert.match(problems, /"verifiedFix\.confirmRuns" \/ --confirm-runs must be a whole number .* got "twice"; using 2/);
    assert.ok(api.shownMessages().some((m) => m.includes('verifiedFix.k')), 'the problems were shown');
  });

  it('honours the total timeout', async () => {
    await setSettings({ samples: 2, k: 1, testTimeoutSeconds: 120, totalTimeoutSeconds: 3, testCommand: hangingTests });
    const started = Date.now();
    const result = await suggest();
    assert.ok(result);
    assert.match(result.stoppedEarly?.message ?? '', /total timeout \(3 s\)/);
    assert.ok(Date.now() - started < 60_000, `the request took ${Date.now() - started} ms`);
  });
});
