// "Suggest Verified Fix for this failing test": a code lens and a Quick Fix on the declaration of a test that the
// latest terminal run or the Testing view reported failing, starting a localised request named after that test.
import * as vscode from 'vscode';
import { isTestRelated } from '../core/security/testFiles';
import { CommandId } from './commands';
import type { LocaliseTarget } from './localiseTarget';
import { failingTestNames, testDeclarationLine } from './model/failingTests';

const TITLE = 'Suggest Verified Fix for this failing test';

/** The failing tests' names, from the latest failed run; passing again (same command) clears them. */
export class FailingTestLenses implements vscode.CodeLensProvider, vscode.CodeActionProvider, vscode.Disposable {
  private names: readonly string[] = [];
  private command: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly note: (message: string) => void = () => undefined) {
    this.subscriptions = [
      this.changed,
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    ];
  }

  /** A finished terminal command: its failing tests, or (exit 0 of the same command) none any more. */
  recordOutput(command: string, exitCode: number, output: string): void {
    if (exitCode === 0) {
      if (command === this.command) this.set([], undefined);
      return;
    }
    const names = failingTestNames(output);
    this.note(names.length > 0 ? `failing tests in its output: ${names.join(', ')}` : `no failing test's name in its ${output.length} characters of output`);
    if (names.length > 0) this.set(names, command);
  }

  /** A failed test the Testing view reported. */
  recordTest(name: string): void {
    if (!this.names.includes(name)) this.set([...this.names, name], this.command);
  }

  /** The failing tests' names, for the tests. */
  failing(): readonly string[] {
    return this.names;
  }

  private set(names: readonly string[], command: string | undefined): void {
    this.names = names;
    this.command = command;
    this.changed.fire();
  }

  private declarations(document: vscode.TextDocument): Array<{ line: number; name: string }> {
    if (this.names.length === 0 || !isTestRelated(vscode.workspace.asRelativePath(document.uri, false))) return [];
    const text = document.getText();
    return this.names.flatMap((name) => {
      const line = testDeclarationLine(text, name);
      return line === undefined ? [] : [{ line, name }];
    });
  }

  private commandFor(document: vscode.TextDocument, name: string): vscode.Command {
    const target: LocaliseTarget = { kind: 'localise', testNames: [name], uri: document.uri };
    return { command: CommandId.Suggest, title: TITLE, arguments: [target] };
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return this.declarations(document).map(({ line, name }) => new vscode.CodeLens(document.lineAt(line).range, this.commandFor(document, name)));
  }

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    return this.declarations(document)
      .filter(({ line }) => line >= range.start.line && line <= range.end.line)
      .map(({ name }) => {
        const action = new vscode.CodeAction(`${TITLE} (\`${name}\`)`, vscode.CodeActionKind.QuickFix);
        action.command = this.commandFor(document, name);
        return action;
      });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
