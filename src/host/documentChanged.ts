// "Has the document changed since the request?": one answer for Apply, the early list and the outcome.
import * as vscode from 'vscode';

/**
 * Whether the document no longer holds the text a request started from, so its candidates would not apply as they
 * are. Given a URI, only an open document counts: one that VS Code has not opened cannot have been edited in it.
 */
export function documentChanged(document: vscode.TextDocument | vscode.Uri, originalText: string): boolean {
  const open = document instanceof vscode.Uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === document.toString()) : document;
  return open !== undefined && open.getText() !== originalText;
}
