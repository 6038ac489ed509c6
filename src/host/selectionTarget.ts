// What a request fixes: the selection, else the enclosing function, else the current line — and how to say which.
import * as vscode from 'vscode';
import { enclosingFunctionAt } from '../core/localisation/functionSpans';

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

/**
 * Symbol providers can be slow to start (a language server booting on a busy machine): after this the progress says
 * what it waits for, and it waits up to `SYMBOL_LONG_WAIT_MS` more before the engine's own parser is asked.
 */
const SYMBOL_WAIT_MS = 3000;
const SYMBOL_LONG_WAIT_MS = 20_000;
const functionKinds = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);

/** Whole lines first..last (0-based), without the final line break, so a replacement keeps it. */
function linesTarget(document: vscode.TextDocument, first: number, last: number, implicit?: string): SelectionTarget {
  const start = document.offsetAt(document.lineAt(first).range.start);
  const end = document.offsetAt(document.lineAt(last).range.end);
  return { start, end, startLine: first + 1, endLine: last + 1, ...(implicit ? { implicit } : {}) };
}

type Symbols = (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined;

const within = <T>(work: Promise<T>, ms: number): Promise<T | 'late'> => Promise.race([work, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms))]);

/** The symbols, waiting as long as the provider needs (up to the long wait, with a progress saying so, cancellable). */
async function documentSymbols(document: vscode.TextDocument): Promise<Symbols> {
  const pending = Promise.resolve(vscode.commands.executeCommand<Symbols>('vscode.executeDocumentSymbolProvider', document.uri)).catch(() => undefined);
  const quick = await within(pending, SYMBOL_WAIT_MS);
  if (quick !== 'late') return quick;
  const title = `Verified Fix: waiting for the ${document.languageId} symbol provider to find the function around the cursor (up to ${SYMBOL_LONG_WAIT_MS / 1000} s more; Cancel uses Verified Fix's own parser)…`;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
    const cancelled = new Promise<'late'>((resolve) => token.onCancellationRequested(() => resolve('late')));
    const late = await Promise.race([within(pending, SYMBOL_LONG_WAIT_MS), cancelled]);
    return late === 'late' ? undefined : late;
  });
}

async function enclosingFunction(document: vscode.TextDocument, position: vscode.Position): Promise<{ name: string; first: number; last: number; ownParser?: boolean } | undefined> {
  const symbols = await documentSymbols(document);
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
  const found = best as vscode.DocumentSymbol | undefined;
  if (found) return { name: found.name, first: found.range.start.line, last: found.range.end.line };
  // No provider, a slow one, or one that lists no function here: the parser the mutation generator uses.
  const own = await enclosingFunctionAt(document.languageId, document.getText(), document.offsetAt(position)).catch(() => undefined);
  return own && { name: own.name, first: own.startLine - 1, last: own.endLine - 1, ownParser: true };
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
    return linesTarget(document, fn.first, fn.last, `No selection: using the enclosing function "${fn.name}" (lines ${fn.first + 1}–${fn.last + 1}${fn.ownParser ? ', found by Verified Fix\'s own parser: the language\'s symbol provider gave none' : ''}).`);
  }
  return linesTarget(document, line, line, `No selection and no function around the cursor: using the current line (${line + 1}); select the code to fix for more.`);
}
