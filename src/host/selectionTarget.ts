// What a request fixes: the selection, else the enclosing function, else the current line — and how to say which.
import * as vscode from 'vscode';

/** The range to fix, as offsets into the document's text, and how it was chosen. */
export interface SelectionTarget {
  readonly start: number;
  readonly end: number;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** Set when there was no selection: what was used instead, in words for a notification. */
  readonly implicit?: string;
}

/** Symbol providers can be slow to start (a language server booting); the current line is better than waiting. */
const SYMBOL_WAIT_MS = 3000;
const functionKinds = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);

/** Whole lines first..last (0-based), without the final line break, so a replacement keeps it. */
function linesTarget(document: vscode.TextDocument, first: number, last: number, implicit?: string): SelectionTarget {
  const start = document.offsetAt(document.lineAt(first).range.start);
  const end = document.offsetAt(document.lineAt(last).range.end);
  return { start, end, startLine: first + 1, endLine: last + 1, ...(implicit ? { implicit } : {}) };
}

async function enclosingFunction(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.DocumentSymbol | undefined> {
  const symbols = await Promise.race([
    Promise.resolve(vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri)).catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), SYMBOL_WAIT_MS)),
  ]);
  let best: vscode.DocumentSymbol | undefined;
  const visit = (list: readonly vscode.DocumentSymbol[]) => {
    for (const symbol of list) {
      if (!symbol.range.contains(position)) continue;
      if (functionKinds.has(symbol.kind)) best = symbol; // deeper matches overwrite: the innermost function wins
      if (symbol.children) visit(symbol.children);
    }
  };
  // SymbolInformation (flat, from older providers) has no children; only the hierarchical form is used.
  if (symbols) visit(symbols.filter((s): s is vscode.DocumentSymbol => 'children' in s));
  return best;
}

/**
 * The selection when there is one (extended to whole lines only when it already ends at a line start, so a
 * triple-click selection does not swallow the next line); otherwise the enclosing function, else the current line.
 */
export async function selectionTarget(editor: vscode.TextEditor): Promise<SelectionTarget> {
  const { document, selection } = editor;
  if (!selection.isEmpty) {
    let end = selection.end;
    if (end.character === 0 && end.line > selection.start.line) end = document.lineAt(end.line - 1).range.end;
    return { start: document.offsetAt(selection.start), end: document.offsetAt(end), startLine: selection.start.line + 1, endLine: end.line + 1 };
  }
  const line = selection.active.line;
  const fn = await enclosingFunction(document, selection.active);
  if (fn) {
    return linesTarget(document, fn.range.start.line, fn.range.end.line, `No selection: using the enclosing function "${fn.name}" (lines ${fn.range.start.line + 1}–${fn.range.end.line + 1}).`);
  }
  return linesTarget(document, line, line, `No selection: using the current line (${line + 1}).`);
}
