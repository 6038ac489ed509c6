// Where a test fails: the Testing view's failed-test command and the Code Action on the lines its stack trace names.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { VerifiedFixApi } from '../../../src/host/testApi';
import { clearSettings, extensionId, openSumJs, quickSettings, setSettings, verifiedFix } from './helpers';

const buggyLine = 7;

describe('Suggest Verified Fix where a test fails', function () {
  this.timeout(120_000);
  let api: VerifiedFixApi;
  let controller: vscode.TestController;

  before(async () => {
    api = await verifiedFix();
    // A test controller of another extension, as a test runner extension would report a failure.
    controller = vscode.tests.createTestController('vf-failures', 'Verified Fix failures fixture');
    // Every candidate fails here: the flow, not the fix, is under test, and the request stays short.
    await setSettings({ ...quickSettings, testCommand: 'node -e "process.exit(1)"' });
  });

  after(async () => {
    controller.dispose();
    await clearSettings();
  });

  it('contributes the command to failed test messages in the Testing view', () => {
    const menus = vscode.extensions.getExtension(extensionId)?.packageJSON.contributes.menus;
    for (const menu of ['testing/message/context', 'testing/message/content']) {
      assert.ok(menus[menu]?.some((m: { command: string }) => m.command === 'verifiedFix.suggestForTestFailure'), `${menu}: ${JSON.stringify(menus[menu])}`);
    }
  });

  it('starts a request on the function a failed test\'s stack trace points at, and marks the line for the Code Action', async () => {
    const editor = await openSumJs();
    const sum = editor.document.uri;
    const testFile = vscode.Uri.joinPath(sum, '..', 'sum.test.js');
    const item = controller.createTestItem('sumTo', 'sumTo', testFile);
    controller.items.add(item);
    const run = controller.createTestRun(new vscode.TestRunRequest([item]), 'fixture run', false);
    const message = new vscode.TestMessage('AssertionError: Expected values to be strictly equal:\n\n1 !== 0');
    // The trace runs from the assertion in the test file into the code under test, innermost frame first.
    message.stackTrace = [
      new vscode.TestMessageStackFrame('sumTo', sum, new vscode.Position(buggyLine - 1, 30)),
      new vscode.TestMessageStackFrame('TestContext.<anonymous>', testFile, new vscode.Position(8, 10)),
    ];
    run.failed(item, message);
    run.end();

    const result = await vscode.commands.executeCommand<{ start: number; end: number } | undefined>('verifiedFix.suggestForTestFailure', { test: item, message });
    assert.ok(result, 'the command ran a request');
    const document = editor.document;
    const covered = { first: document.positionAt(result.start).line + 1, last: document.positionAt(result.end).line + 1 };
    assert.ok(covered.first <= buggyLine && buggyLine <= covered.last, `the request's lines ${covered.first}–${covered.last} hold line ${buggyLine}`);
    assert.deepEqual(api.failureLines(sum), [buggyLine], 'the frame in the test file is not marked, the one in sum.js is');

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', sum, new vscode.Range(buggyLine - 1, 0, buggyLine - 1, 0));
    const offered = actions.find((a) => /^Suggest Verified Fix/.test(a.title));
    assert.ok(offered, `code actions on line ${buggyLine}: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(offered.command?.command, 'verifiedFix.suggest');
    const elsewhere = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', sum, new vscode.Range(0, 0, 0, 0));
    assert.ok(!elsewhere.some((a) => /^Suggest Verified Fix/.test(a.title)), 'no action on a line no failure names');
  });

  it('says what to do when a failure names no source line', async () => {
    const message = new vscode.TestMessage('Error: timed out');
    const before = api.shownMessages().length;
    assert.equal(await vscode.commands.executeCommand('verifiedFix.suggestForTestFailure', { message }), undefined);
    assert.match(api.shownMessages().slice(before).join('\n'), /names no line of a source file/);
  });

  it('activates cheaply', () => {
    // Reported, not asserted: timings on a loaded CI machine are noise (the README states the measured cost).
    console.log(`      (activate() took ${api.activationMs().toFixed(1)} ms)`);
    assert.ok(api.activationMs() >= 0);
  });
});
