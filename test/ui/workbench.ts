// Drives a real VS Code workbench (code-server in headless Chromium) as a user would, for the UI tests.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type Browser } from '../integration/launcher/browser';
import { removeOnExit, startCodeServer, type CodeServer } from '../integration/launcher/codeServer';

export const repoRoot = resolve(__dirname, '..', '..');
/** Where screenshots go (git-ignored). */
export const outputDir = join(repoRoot, 'test-output');
const fixture = join(repoRoot, 'test', 'fixtures', 'integration-ws');

/** Every wait allows this long: the workbench and extension host are slow to start on a loaded 2-core machine. */
export const uiTimeoutMs = 60_000;

export interface WorkbenchOptions {
  /** The `.vsix` installed into code-server; default `verified-fix.vsix` at the root (`npm run package`). */
  readonly vsix?: string;
  /** Workspace settings written to the copy's `.vscode/settings.json` before the workbench opens. */
  readonly settings?: Record<string, unknown>;
}

/** A status bar item as the user sees it. */
export interface StatusBarItem {
  readonly id: string;
  readonly text: string;
  readonly ariaLabel: string;
}

/** One code-server with the packaged extension installed, one browser page on a fresh copy of the fixture. */
export class Workbench {
  private constructor(
    readonly page: Page,
    readonly workspace: string,
    private readonly server: CodeServer,
    private readonly browser: Browser,
    private readonly removeCopy: () => void,
  ) {}

  /** Installs the `.vsix`, starts code-server on a copy of the fixture workspace and waits for the workbench. */
  static async start(options: WorkbenchOptions = {}): Promise<Workbench> {
    const vsix = options.vsix ?? process.env.VERIFIED_FIX_VSIX ?? join(repoRoot, 'verified-fix.vsix');
    if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package (npm run test:ui does).`);
    const copy = mkdtempSync(join(tmpdir(), 'vf-ui-'));
    const removeCopy = removeOnExit(copy);
    const workspace = join(copy, 'integration-ws');
    cpSync(fixture, workspace, { recursive: true });
    if (options.settings) {
      mkdirSync(join(workspace, '.vscode'));
      writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify(options.settings, null, 2));
    }
    let server: CodeServer | undefined;
    let browser: Browser | undefined;
    try {
      server = await startCodeServer({ folder: workspace, installExtensions: [vsix] });
      browser = await openBrowser();
      const workbench = new Workbench(browser.page, workspace, server, browser, removeCopy);
      await workbench.open();
      return workbench;
    } catch (error) {
      await browser?.close();
      await server?.stop();
      removeCopy();
      throw error;
    }
  }

  private async open(): Promise<void> {
    await this.page.goto(`${this.server.url}/?folder=${encodeURIComponent(this.workspace)}`, { timeout: uiTimeoutMs });
    await this.page.locator('.monaco-workbench').waitFor({ timeout: uiTimeoutMs });
    await this.page.locator('.part.statusbar').waitFor({ timeout: uiTimeoutMs });
    // The explorer lists the workspace once the remote file system answers.
    await this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'sum.js' }).first().waitFor({ timeout: uiTimeoutMs });
    // The extension activates on startup finished, which on a loaded machine can come long after the workbench shows.
    // Until then a command waits for the activation and reads the editor only after it, when the keys typed since
    // (an Escape that drops the selection, a terminal command it never hears) have changed what it would see. A user
    // waits for the window to finish loading; so does every test.
    await this.waitForLog(/activated in/, 2 * uiTimeoutMs);
  }

  /** Ctrl+P, type the file name, Enter; waits until its editor tab is active. */
  async openFile(name: string): Promise<void> {
    // Quick open's file search can miss its first query while the remote side is still starting on a
    // loaded machine; the user would just type again, and so does this.
    await retry(3, async () => {
      await this.focusWorkbench();
      await this.page.keyboard.press('Control+P');
      await this.fillQuickInput(name);
      await this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: uiTimeoutMs / 3 });
      await this.enterInQuickInput();
    });
    await this.activeTab(name).waitFor({ timeout: uiTimeoutMs });
    await this.editor().locator('.view-lines').waitFor({ timeout: uiTimeoutMs });
  }

  /**
   * Puts `value` into the open quick input (Quick Open, the palette, Go to Line) without keystrokes. On a loaded
   * machine focus can leave the input while it opens (an editor taking it late), and the input closes then: text
   * typed or `fill`ed at that moment lands in the editor behind it (CI's run had ">Verified Fix: Show Statistics"
   * in sum.js). The value is set on the input element itself, with the `input` event VS Code listens for.
   */
  private async fillQuickInput(value: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: uiTimeoutMs });
    await input.evaluate((element, text) => {
      const box = element as unknown as { value: string; dispatchEvent(event: Event): boolean };
      box.value = text;
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);
  }

  /** Enter, only while the quick input still has the focus (else it would go to the editor: a new line there). */
  private async enterInQuickInput(): Promise<void> {
    await this.page.locator('.quick-input-widget input:focus').waitFor({ timeout: uiTimeoutMs / 3 });
    await this.page.keyboard.press('Enter');
  }

  /** The active editor tab, optionally only if its label contains `name`. */
  activeTab(name?: string): Locator {
    const tab = this.page.locator('.tabs-container .tab.active');
    return name ? tab.filter({ hasText: name }) : tab;
  }

  /** The active text editor. */
  editor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** The text of the active editor's visible lines, top to bottom. */
  async visibleText(): Promise<string> {
    const lines = await this.editor()
      .locator('.view-lines .view-line')
      .evaluateAll((els) =>
        els
          .map((el) => ({
            // Monaco positions lines absolutely and reuses their elements, so DOM order is not line order.
            top: parseFloat((el as unknown as { style: { top: string } }).style.top) || 0,
            text: (el.textContent ?? '').replace(/\u00a0/g, ' '),
          }))
          .sort((a, b) => a.top - b.top)
          .map((l) => l.text),
      );
    return lines.join('\n');
  }

  /** Moves to line `line` (1-based) with Ctrl+G and selects it from its first character to its end. */
  async selectLine(line: number): Promise<void> {
    await this.editor().locator('.view-lines').click();
    await this.page.keyboard.press('Control+G');
    await this.fillQuickInput(`:${line}`);
    await this.enterInQuickInput();
    await this.page.locator('.quick-input-widget input').waitFor({ state: 'hidden', timeout: uiTimeoutMs });
    // The jump leaves the cursor on the line with nothing selected. Waiting for the status bar to say so means the
    // check below reads this selection, not one an earlier step left on the same line (the status item can lag, and
    // on a loaded machine keys typed while the jump's input closes go nowhere).
    await this.page.locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`^\\s*Ln ${line}, Col \\d+\\s*$`) }).first().waitFor({ timeout: uiTimeoutMs });
    await this.page.keyboard.press('Home'); // to the first non-blank character
    await this.page.keyboard.press('Shift+End');
    await this.editor().locator('.selected-text').first().waitFor({ timeout: uiTimeoutMs });
    // The status bar follows the editor's model, not its paint: on a loaded machine the highlight of an older
    // selection can still be on screen while the keys above are being handled.
    await this.lineSelected(line).first().waitFor({ timeout: uiTimeoutMs });
  }

  /** The cursor-position status item while line `line` has a selection ("Ln 7, Col 42 (39 selected)"). */
  private lineSelected(line: number): Locator {
    return this.page.locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`Ln ${line}, Col \\d+ \\(\\d+ selected\\)`) });
  }

  /**
   * Selects line `line`, opens the editor's context menu at the selection and chooses `entry` from it. The menu is
   * opened from the keyboard (Shift+F10, the menu a right-click on the selection opens): a real right-click that
   * lands outside the selection (a highlight painted late on a loaded machine) moves the cursor and drops the
   * selection, and the status bar that would tell can lag behind, so the request would quietly be for the enclosing
   * function.
   */
  async contextMenuOnLine(line: number, entry: string | RegExp): Promise<void> {
    const item = this.page.locator('.context-view .action-label', { hasText: entry }).first();
    await retry(3, async () => {
      await this.page.keyboard.press('Escape');
      await this.selectLine(line);
      await this.page.keyboard.press('Shift+F10');
      await item.waitFor({ timeout: uiTimeoutMs });
      if (!(await this.lineSelected(line).first().isVisible())) throw new Error(`the selection of line ${line} was lost`);
    });
    await item.hover();
    await item.click();
    // A click a loaded workbench dropped leaves the menu open with the entry highlighted (seen once in CI, the menu
    // still there a minute later): it is clicked again. A menu that did close has no entry left to click.
    const menu = this.page.locator('.context-view .monaco-menu');
    for (let again = 0; again < 2; again++) {
      if (await menu.waitFor({ state: 'detached', timeout: uiTimeoutMs / 3 }).then(() => true, () => false)) return;
      await item.click({ timeout: uiTimeoutMs / 3 }).catch(() => undefined);
    }
    await menu.waitFor({ state: 'detached', timeout: uiTimeoutMs });
  }

  /**
   * Suggest Verified Fix from the context menu on line `line`, returning once the request has started (its
   * "request …" line is in the extension's log). Until then the next key could still change what it reads: the
   * workbench hands a menu's command to the extension host after an asynchronous step, and an Escape pressed
   * meanwhile (what openFile does first) clears the selection before the extension reads it (CI's loaded runs
   * requested the enclosing function that way).
   */
  async suggestOnLine(line: number): Promise<void> {
    const requests = () => this.extensionLog(2000).split('\n').filter((l) => /\] request \w+: /.test(l)).length;
    const before = requests();
    await this.contextMenuOnLine(line, 'Suggest Verified Fix');
    const deadline = Date.now() + uiTimeoutMs;
    while (requests() === before) {
      if (Date.now() > deadline) throw new Error(`no request started after Suggest Verified Fix on line ${line}:\n${this.extensionLog()}`);
      await this.page.waitForTimeout(200);
    }
  }

  /**
   * Selects line `line` and opens its Quick Fix menu (Ctrl+.) until `entry` is in it. On a loaded machine the
   * first menu can open before the extension host has answered ("No code actions available") or before a terminal
   * run's end was heard; a user presses again, and so does this.
   */
  async quickFix(line: number, entry: Locator): Promise<void> {
    await retry(6, async () => {
      await this.page.keyboard.press('Escape');
      await this.selectLine(line);
      await this.page.keyboard.press('Control+.');
      await entry.waitFor({ timeout: uiTimeoutMs / 6 });
    });
  }

  /** The labels of the context menu's entries at the selection, then closes the menu (Escape). */
  async contextMenuEntries(): Promise<string[]> {
    const selection = this.editor().locator('.selected-text').first();
    if (!(await selection.boundingBox())) throw new Error('no selection to open the context menu on');
    // From the keyboard (Shift+F10), not a right-click: on a loaded machine the right-click's own mouse-up can land
    // on the entry the menu opened under the pointer (Suggest Verified Fix) and start a request nobody asked for.
    await this.page.keyboard.press('Shift+F10');
    const labels = this.page.locator('.context-view .action-label');
    await labels.first().waitFor({ timeout: uiTimeoutMs });
    const texts = (await labels.allTextContents()).map((t) => t.trim()).filter(Boolean);
    await this.page.keyboard.press('Escape');
    return texts;
  }

  /** F1, type the command's title, click the first entry whose label contains it. */
  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    // Again from F1 when the palette closed before the click (focus taken by an editor the extension opened): the
    // command did not run then, so running it again cannot run it twice.
    await retry(3, async () => {
      await this.focusWorkbench();
      await this.page.keyboard.press('F1');
      await this.fillQuickInput(`>${title}`);
      await row.waitFor({ timeout: uiTimeoutMs / 2 });
      // Enter would run the highlighted entry, which is the best match, not necessarily the exact title.
      await row.click({ timeout: uiTimeoutMs / 2 });
    });
    await input.waitFor({ state: 'hidden', timeout: uiTimeoutMs });
  }

  /** The status bar items currently shown, left to right. */
  async statusBarItems(): Promise<StatusBarItem[]> {
    return this.page.locator('.part.statusbar .statusbar-item').evaluateAll((els) =>
      els.map((el) => ({
        id: el.id,
        text: (el.textContent ?? '').trim(),
        ariaLabel: el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? el.getAttribute('aria-label') ?? '',
      })),
    );
  }

  /** The texts of the notification toasts on screen. */
  async notifications(): Promise<string[]> {
    const toasts = this.page.locator('.notifications-toasts .notification-toast .notification-list-item-message');
    return (await toasts.allTextContents()).map((t) => t.trim());
  }

  /** Drags the sash on the side bar's right edge until the side bar is `width` CSS pixels wide; returns the width reached. */
  async resizeSideBar(width: number): Promise<number> {
    const sideBar = this.page.locator('.part.sidebar').first();
    const box = await sideBar.boundingBox();
    if (!box) throw new Error('the side bar is not shown');
    const edge = box.x + box.width;
    // Two steps, as a hand would: VS Code starts a sash drag only after the pointer moved while pressed.
    await this.page.mouse.move(edge - 1, box.y + box.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(edge + (box.x + width - edge) / 2, box.y + box.height / 2, { steps: 5 });
    await this.page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 5 });
    await this.page.mouse.up();
    return (await sideBar.boundingBox())?.width ?? 0;
  }

  /** Opens a new integrated terminal and runs `command` in it (the shell's own integration reports its end). */
  async runInTerminal(command: string): Promise<void> {
    await this.runCommand('Terminal: Create New Terminal');
    const terminal = this.page.locator('.terminal-wrapper.active .xterm').first();
    await terminal.waitFor({ timeout: uiTimeoutMs });
    await terminal.click();
    await this.page.keyboard.type(command);
    await this.page.keyboard.press('Enter');
  }

  /** Saves a PNG of the whole window to test-output/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(outputDir, { recursive: true });
    const path = join(outputDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /**
   * The last lines of the extension's own output channel ("Verified Fix"), from the extension host's log files:
   * what the extension did is the first thing to read when a step of a UI test waited in vain.
   */
  extensionLog(lines = 60): string {
    const logs = join(this.server.userDataDir, 'logs');
    if (!existsSync(logs)) return '(no logs folder)';
    const found = (readdirSync(logs, { recursive: true }) as string[]).filter((f) => /Verified Fix\.log$/.test(f)).sort();
    if (found.length === 0) return '(no Verified Fix output channel log)';
    return readFileSync(join(logs, found[found.length - 1]), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }

  /**
   * Waits until the extension's log has a line matching `pattern`: how a test knows the extension is active (the
   * workbench shows nothing of it until there is a task) before it does what only an active extension hears.
   */
  async waitForLog(pattern: RegExp, timeoutMs = uiTimeoutMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.extensionLog(400))) {
      if (Date.now() > deadline) throw new Error(`the extension's log has no line matching ${pattern} after ${timeoutMs / 1000} s:\n${this.extensionLog()}`);
      await this.page.waitForTimeout(500);
    }
  }

  /** Closes the browser, stops code-server's whole process group and removes the workspace copy. */
  async close(): Promise<void> {
    await this.browser.close();
    await this.server.stop();
    this.removeCopy();
  }

  /** Keyboard shortcuts go to the focused element; make it the workbench, not a leftover input. */
  private async focusWorkbench(): Promise<void> {
    await this.page.keyboard.press('Escape');
  }
}

/** Runs `step` up to `times` times, rethrowing the last failure. */
async function retry(times: number, step: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= times) throw error;
    }
  }
}
