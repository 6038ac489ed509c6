// "Fix this failing test" in a real VS Code: the Testing view command with what VS Code 1.100 passes (a test item and
// the message text, no stack), the "Fix Failing Tests" palette command, and the code lens on the failing test.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FixResult } from '../../../src/core/contract/fixRequest';
import { clearSettings, openSumJs, quickSettings, setSettings, verifiedFix } from './helpers';

/** sum.js declares sumTo on line 5: the function only the failing test `sumTo` runs on its own. */
const SUM_TO_LINE = 5;

describe('Suggest Verified Fix for a failing test (no stack frame, no selection)', function () {
  this.timeout(240_000);
  let controller: vscode.TestController;

  before(async () => {
    await verifiedFix();
    controller = vscode.tests.createTestController('vf-failing-tests', 'Verified Fix failing-test fixture');
    // The fixture's own tests: localisation needs their per-test results and coverage.
    await setSettings({ ...quickSettings, testCommand: 'node --test' });
  });

  after(async () => {
    controller.dispose();
    await clearSettings();
  });

  const startsAtSumTo = (result: FixResult | undefined) => {
    assert.ok(result, 'a request ran');
    assert.equal(result.relativePath, 'sum.js');
    assert.equal(result.originalText.slice(0, result.start).split('\n').length, SUM_TO_LINE, 'the request is on sumTo');
  };

  it('the Testing view command on a message as VS Code 1.100 passes it runs that test and localises', async () => {
    const editor = await openSumJs();
    const testFile = vscode.Uri.joinPath(editor.document.uri, '..', 'sum.test.js');
    const item = controller.createTestItem(`${testFile.toString()}/sumTo`, 'sumTo', testFile);
    controller.items.add(item);
    // The message text only: VS Code 1.100 drops the stack frames it hands a menu command.
    const message = new vscode.TestMessage('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n6 !== 10\n');
    startsAtSumTo(await vscode.commands.executeCommand<FixResult | undefined>('verifiedFix.suggestForTestFailure', { test: item, message }));
  });

  it('offers the code lens on the failing test in its test file', async () => {
    const testFile = vscode.Uri.joinPath((await openSumJs()).document.uri, '..', 'sum.test.js');
    // Code lens providers run on an open document only (VS Code answers "Illegal argument" otherwise), as a user's is.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(testFile));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', testFile);
    const lens = lenses.find((l) => l.command?.title === 'Suggest Verified Fix for this failing test');
    assert.ok(lens, JSON.stringify(lenses.map((l) => l.command?.title)));
    assert.equal(lens.range.start.line, 5, 'on `test(\'sumTo\'`');
  });

  it('"Fix Failing Tests" runs the workspace\'s tests once and starts on the function they point at', async () => {
    startsAtSumTo(await vscode.commands.executeCommand<FixResult | undefined>('verifiedFix.fixFailingTests'));
  });
});
