// UI test: the candidate list once the behaviour check has compared the verified fixes: each row carries its
// behaviour and the title says whether the fixes behave the same; its screenshot is the README's
// (docs/images/behaviour-groups.png, copied from test-output/).
import assert from 'node:assert/strict';
import { Workbench, uiTimeoutMs } from './workbench';

describe('the candidate list with behaviour groups', function () {
  this.timeout(300_000);
  let workbench: Workbench;

  before(async () => {
    // The strength check off: this test is about the behaviour check, which then runs alone after the verdicts.
    workbench = await Workbench.start({
      settings: { 'verifiedFix.samples': 4, 'verifiedFix.k': 2, 'verifiedFix.testTimeoutSeconds': 10, 'verifiedFix.strengthCheck': 'off', 'verifiedFix.behaviourCheck': 'quick' },
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

  it('shows each fix\'s behaviour in the list, and the title says the fixes behave the same on every input tried', async () => {
    await workbench.openFile('sum.js');
    await workbench.editor().locator('.view-line', { hasText: 'function sumTo' }).waitFor({ timeout: uiTimeoutMs });
    await workbench.suggestOnLine(7);
    const item = workbench.page.locator('.part.statusbar .statusbar-item', { hasText: /\d+ verified fix(es)?/ }).first();
    await item.waitFor({ timeout: 4 * uiTimeoutMs });
    // The list opens at the verdicts; the behaviour check goes on after them, and the list carries it once it ends.
    const rows = workbench.page.locator('.quick-input-list .monaco-list-row');
    let texts: string[] = [];
    for (let tries = 0; tries < 40; tries++) {
      await item.click();
      await rows.first().waitFor({ timeout: uiTimeoutMs });
      texts = await rows.allTextContents();
      if (texts.some((t) => /behaviour/.test(t))) break;
      await workbench.page.keyboard.press('Escape');
      await workbench.page.waitForTimeout(3000);
    }
    assert.ok(texts.length >= 2 && texts.every((t) => /same behaviour as every other fix on \d+ inputs|behaviour \d of \d/.test(t)), `rows: ${JSON.stringify(texts)}`);
    const title = await workbench.page.locator('.quick-input-widget .quick-input-title').first().innerText();
    assert.match(title, /sum\.js:7: \d+ fixes pass( and behave the same on all \d+ inputs tried|; they differ on sumTo\(| with \d+ behaviours)/);
    await workbench.screenshot('behaviour-groups');
  });
});
