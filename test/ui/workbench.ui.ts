// UI test: the packaged extension in a real workbench, driven like a user: open the buggy file, select the line,
// right-click Suggest Verified Fix, pick the verified candidate, see the diff, Apply, read the status bar and panel.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Workbench, uiTimeoutMs } from './workbench';

describe('workbench with Verified Fix installed', function () {
  this.timeout(240_000);
  let workbench: Workbench;

  before(async () => {
    // Few samples and a short timeout (a mutant can loop forever) keep the run short; the rest are the defaults.
    workbench = await Workbench.start({ settings: { 'verifiedFix.samples': 4, 'verifiedFix.k': 2, 'verifiedFix.testTimeoutSeconds': 10 } });
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed' && workbench) {
      console.log(`screenshot: ${await workbench.screenshot(`failed-${test.title.replace(/\W+/g, '-')}`)}`);
    }
  });

  after(async () => {
    await workbench?.close();
  });

  it('opens the buggy file of the fixture workspace', async () => {
    await workbench.openFile('sum.js');
    await workbench.editor().locator('.view-line', { hasText: 'function sumTo' }).waitFor({ timeout: uiTimeoutMs });
    const text = await workbench.visibleText();
    assert.match(text, /for \(let i = 1; i < n; i\+\+\) total \+= i;/);
    const path = await workbench.screenshot('workbench-sum-js');
    assert.ok(existsSync(path));
  });

  it('selects the buggy line', async () => {
    await workbench.selectLine(7);
    assert.ok((await workbench.editor().locator('.selected-text').count()) > 0, 'line 7 is not highlighted');
    // The cursor-position status item reads e.g. "Ln 7, Col 42 (39 selected)".
    const status = workbench.page.locator('.part.statusbar .statusbar-item', { hasText: /Ln 7, Col \d+ \(39 selected\)/ });
    await status.first().waitFor({ timeout: uiTimeoutMs });
  });

  it('offers the editor context menu on the selection', async () => {
    const entries = await workbench.contextMenuEntries();
    assert.ok(entries.some((e) => /Command Palette/.test(e)), `context menu: ${JSON.stringify(entries)}`);
    await workbench.screenshot('workbench-line-selected');
  });

  it('lists the packaged extension as enabled (F1 command)', async () => {
    await workbench.runCommand('Extensions: Show Enabled Extensions');
    const item = workbench.page.locator('.extensions-viewlet .extension-list-item', { hasText: 'Verified Fix' });
    await item.first().waitFor({ timeout: uiTimeoutMs });
  });

  it('reads the status bar', async () => {
    const items = await workbench.statusBarItems();
    assert.ok(items.length > 0, 'no status bar items');
    // The cursor position item shows where selectLine left the cursor.
    assert.ok(items.some((item) => /Ln 7, Col \d+/.test(item.text)), `no "Ln 7" in ${JSON.stringify(items.map((i) => i.text))}`);
  });

  it('right-click Suggest Verified Fix offers only verified candidates, best first', async () => {
    // sum.js is open from the first test; its tab is safer than Ctrl+P, whose typing could land in the editor.
    await workbench.page.locator('.tabs-container .tab', { hasText: /^sum\.js$/ }).first().click();
    await workbench.selectLine(7);
    await workbench.contextMenu('Suggest Verified Fix');
    // The run (baseline, 4 candidates, confirmation runs) ends in a QuickPick of the verified candidates.
    const first = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: /passed 2\/2 runs/ }).first();
    await first.waitFor({ timeout: 4 * uiTimeoutMs });
    await workbench.screenshot('quick-pick');
    const rows = await workbench.page.locator('.quick-input-list .monaco-list-row').allTextContents();
    // No failed candidate is listed ("fixes 2 failing tests" is what a verified one proved, not a failure).
    assert.ok(rows.length >= 1 && rows.every((r) => !/\b(fail|failed|timeout|error)\b/i.test(r)), `rows: ${JSON.stringify(rows)}`);
    assert.ok(rows.every((r) => /fixes \d+ failing tests?/.test(r)), `every verified candidate says what it proved: ${JSON.stringify(rows)}`);
    assert.ok(rows.every((r) => !r.includes('`') && !/±/.test(r)), `plain text, as a QuickPick shows it literally: ${JSON.stringify(rows)}`);
    await first.click();
  });

  it('opens VS Code\'s diff view with the fix', async () => {
    const diff = workbench.page.locator('.editor-group-container.active .monaco-diff-editor');
    await diff.waitFor({ timeout: uiTimeoutMs });
    await diff.locator('.modified-in-monaco-diff-editor .view-line', { hasText: 'i <= n' }).first().waitFor({ timeout: uiTimeoutMs });
    assert.match(await workbench.activeTab().innerText(), /candidate/i);
    await workbench.screenshot('diff-view');
  });

  it('Apply in the diff editor\'s title bar changes the file', async () => {
    await workbench.page.locator('.editor-group-container.active .editor-actions .action-label[aria-label*="Apply Candidate"]').first().click();
    // Apply closes the diff and shows the file. Click its tab rather than Ctrl+P: keys typed while quick open is
    // still appearing would land in the editor, on the line just applied.
    await workbench.page.locator('.tabs-container .tab', { hasText: /^sum\.js$/ }).first().click();
    await workbench.editor().locator('.view-line', { hasText: 'i <= n' }).first().waitFor({ timeout: uiTimeoutMs });
    assert.match(await workbench.visibleText(), /for \(let i = 1; i <= n; i\+\+\) total \+= i;/);
  });

  it('shows pass@1 and pass@k in the status bar', async () => {
    const item = workbench.page.locator('.part.statusbar .statusbar-item', { hasText: /pass@1 \d+% · pass@2 \d+%/ }).first();
    await item.waitFor({ timeout: uiTimeoutMs });
  });

  it('shows the session statistics in the panel', async () => {
    await workbench.runCommand('Verified Fix: Show Statistics');
    // A webview is an iframe holding the content's iframe.
    const content = workbench.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await content.locator('body', { hasText: 'pass@1' }).first().waitFor({ timeout: uiTimeoutMs });
    await content.locator('svg').first().waitFor({ timeout: uiTimeoutMs });
    // Each number explains itself on hover; one task is too few for an interval, and the panel says so.
    const hatRow = content.locator('table.headline tr', { hasText: /pass\^2/ }).first();
    assert.match((await hatRow.getAttribute('title')) ?? '', /the chance that all 2 candidates are verified/);
    assert.match(await content.locator('table.headline').first().innerText(), /interval from 5 tasks \(1 so far\)/);
    await workbench.screenshot('panel');
  });
});
