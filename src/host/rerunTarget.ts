// "Run Again" and a failure's line: the editor a request reopens instead of the active one.
import * as vscode from 'vscode';
import { isFailureTarget } from './failureIndex';
import type { FailureTarget } from './failureIndex';

/** What "Run Again" passes: the same lines of the same document. */
export interface RerunTarget {
  readonly uri: vscode.Uri;
  readonly startLine: number;
  readonly endLine: number;
}

export function isRerunTarget(value: unknown): value is RerunTarget {
  const t = value as RerunTarget;
  return typeof t === 'object' && t !== null && t.uri instanceof vscode.Uri && Number.isInteger(t.startLine) && Number.isInteger(t.endLine);
}

/** Opens the target's document with its lines selected, or, for a failure's line, the cursor on it (the enclosing function is taken). */
export async function reopen(target: RerunTarget | FailureTarget): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(target.uri);
  if (isFailureTarget(target)) {
    const editor = await vscode.window.showTextDocument(document);
    const line = document.lineAt(Math.min(target.line, document.lineCount) - 1);
    const at = line.range.start.translate(0, line.firstNonWhitespaceCharacterIndex);
    editor.selection = new vscode.Selection(at, at);
    return editor;
  }
  const last = Math.min(target.endLine, document.lineCount) - 1;
  const first = Math.min(target.startLine - 1, last);
  const editor = await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(document.lineAt(first).range.start, document.lineAt(last).range.end);
  return editor;
}
