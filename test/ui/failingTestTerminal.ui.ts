// UI test: "fix this failing test" from the integrated terminal: `node --test` fails by assertion only (the stack
// names just the test file), and the failing test's declaration then offers the Quick Fix that opens a verified list.
import assert from 'node:assert/strict';
import { Workbench, uiTimeoutMs } from './workbench';

const TITLE = 'Suggest Verified Fix for this failing test';

describe('a failing test run in the integrated terminal', function () {
  // The steps' waits are bounded one by one; at load 20+ the whole test took 4 minutes (the request about 45 s of it).
  this.timeout(420_000);
  let workbench: Workbench;

  before(async () => {
    // The post-verdict checks off: this test is about reaching the verified list, which opens at the verdicts.
    workbench = await Workbench.start({
      settings: { 'verifiedFix.samples': 4, 'verifiedFix.k': 2, 'verifiedFix.testTimeoutSeconds': 10, 'verifiedFix.strengthCheck': 'off', 'verifiedFix.behaviourCheck': 'off' },
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && workbench) {
      console.log(`screenshot: ${await workbench.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`)}`);
      console.log(`the extension's log ends:\n${workbench.extensionLog()}`);
    }
  });

  after(async () => {
    await workbench?.close();
  });

  it('offers the code lens and Quick Fix on the failing test after `node --test` fails by assertion, and the lens opens a verified list', async () => {
    // The workbench waited for the extension's activation (Workbench.start): a command that ends before it is never
    // heard, as shell integration does not replay it.
    await workbench.runInTerminal('node --test');
    // The terminal paints on a canvas (its text is not in the DOM): the code lens below is the UI state to wait for.
    await workbench.openFile('sum.test.js');
    // The code lens appears once the extension has heard the run end: the failing test is known from then on.
    const lens = workbench.editor().locator('.contentWidgets .codelens-decoration a', { hasText: TITLE }).first();
    await lens.waitFor({ timeout: 2 * uiTimeoutMs });
    // `test('sumTo', …` is line 6: the light bulb's menu there holds the Quick Fix named after the test.
    const entry = workbench.page.locator('.action-widget .monaco-list-row', { hasText: `${TITLE} (\`sumTo\`)` }).first();
    await workbench.quickFix(6, entry);
    await workbench.screenshot('failing-test-quick-fix');
    // Both start the same request; one request keeps the test short, so the menu closes and the lens starts it.
    await workbench.page.keyboard.press('Escape');
    await entry.waitFor({ state: 'hidden', timeout: uiTimeoutMs });
    await lens.click();
    // The list opens at the verdicts, or waits behind the status bar item when the editor had the focus meanwhile.
    const verified = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: /passed 2\/2 runs/ }).first();
    const item = workbench.page.locator('.part.statusbar .statusbar-item', { hasText: /\d+ verified fix(es)?/ }).first();
    await verified.or(item).waitFor({ timeout: 4 * uiTimeoutMs });
    if (!(await verified.isVisible())) {
      await item.click();
      await verified.waitFor({ timeout: uiTimeoutMs });
    }
    const rows = await workbench.page.locator('.quick-input-list .monaco-list-row').allTextContents();
    assert.ok(rows.length >= 1 && rows.every((r) => /fixes \d+ failing tests?/.test(r)), `every row is a verified fix: ${JSON.stringify(rows)}`);
    // Localised from the failing test: the request is on sumTo in sum.js, not on the test file.
    const title = await workbench.page.locator('.quick-input-widget .quick-input-title').first().innerText();
    assert.match(title, /sum\.js:\d+/);
    await workbench.screenshot('failing-test-verified-list');
  });
});
