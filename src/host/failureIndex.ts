// Where failing tests point: the source lines their stack traces name, learnt from test runs in the integrated
// terminal and from failed tests in the Testing view, offered as a "Suggest Verified Fix" Code Action on those lines.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { stripAnsi } from '../core/base/ansi';
import { outputLocations } from '../core/testResults/stackLocations';
import type { OutputLocation } from '../core/testResults/stackLocations';
import { isTestRelated } from '../core/security/testFiles';
import { CommandId } from './commands';
import type { Log } from './log';
import type { LocaliseTarget } from './localiseTarget';
import { testNameOfItem } from './model/failingTests';

/** The end of a terminal command's output that is read: a stack trace is near the end, a suite's log can be huge. */
const KEPT_OUTPUT_CHARS = 256 * 1024;
/** Files whose lines one failure may mark; a trace that names more is mostly frames of other code. */
const MAX_FILES_PER_FAILURE = 20;

/** Where a request should start: the enclosing function of `line` (1-based) in `uri`. */
export interface FailureTarget {
  readonly uri: vscode.Uri;
  readonly line: number;
}

export function isFailureTarget(value: unknown): value is FailureTarget {
  const t = value as FailureTarget;
  return typeof t === 'object' && t !== null && t.uri instanceof vscode.Uri && Number.isInteger(t.line) && t.line > 0;
}

/** One failing run's marks: which command (to clear them when it passes again) and the lines per file. */
interface Failure {
  readonly command: string;
  readonly lines: ReadonlyMap<string, ReadonlySet<number>>;
}

/**
 * The workspace source files (not tests, not dependencies) among `locations`, with their lines. A relative path is
 * taken against `cwd`, then against each workspace folder; a path that names no existing file is dropped.
 */
function sourceLines(locations: readonly OutputLocation[], cwd: string | undefined): Map<string, Set<number>> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const lines = new Map<string, Set<number>>();
  for (const { path, line } of locations) {
    const bases = isAbsolute(path) ? [''] : [...(cwd ? [cwd] : []), ...folders.map((f) => f.uri.fsPath)];
    const file = bases.map((base) => (base ? join(base, path) : path)).find((candidate) => existsSync(candidate));
    if (!file) continue;
    const uri = vscode.Uri.file(file);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const relative = folder && vscode.workspace.asRelativePath(uri, false);
    if (!relative || relative.split('/').includes('node_modules') || isTestRelated(relative)) continue;
    if (!lines.has(uri.fsPath) && lines.size >= MAX_FILES_PER_FAILURE) continue;
    lines.set(uri.fsPath, (lines.get(uri.fsPath) ?? new Set()).add(line));
  }
  return lines;
}

/** Keeps the latest failure's lines and offers the Code Action on them. */
export class FailureIndex implements vscode.CodeActionProvider, vscode.Disposable {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  private failure: Failure | undefined;
  private readonly reading = new Map<vscode.TerminalShellExecution, Promise<string>>();
  private readonly subscriptions: vscode.Disposable[];

  /** `onOutput` hears every finished terminal command (its output ANSI-free; '' for exit 0): the failing tests' names. */
  constructor(
    private readonly onOutput: (command: string, exitCode: number, output: string) => void = () => undefined,
    private readonly note: (message: string) => void = () => undefined,
  ) {
    this.subscriptions = [
      // Read from the start: output written before reading begins is not replayed.
      vscode.window.onDidStartTerminalShellExecution(({ execution }) => this.reading.set(execution, readOutput(execution))),
      vscode.window.onDidEndTerminalShellExecution((event) => void this.finished(event)),
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this, { providedCodeActionKinds: FailureIndex.providedCodeActionKinds }),
    ];
  }

  /** Lines (1-based) of `uri` that the latest failure points at, for the tests. */
  linesOf(uri: vscode.Uri): readonly number[] {
    return [...(this.failure?.lines.get(uri.fsPath) ?? [])].sort((a, b) => a - b);
  }

  /**
   * Remembers the source lines among a failure's locations (innermost first), as the marks the Code Action offers;
   * locations naming no source line leave the last failure's marks. Returns the lines kept, per file, in order.
   */
  recordLocations(command: string, locations: readonly OutputLocation[], cwd?: string): ReadonlyMap<string, ReadonlySet<number>> {
    const lines = sourceLines(locations, cwd);
    if (lines.size > 0) this.failure = { command, lines };
    return lines;
  }

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const lines = this.failure?.lines.get(document.uri.fsPath);
    const line = range.start.line + 1;
    if (!lines?.has(line)) return [];
    const action = new vscode.CodeAction('Suggest Verified Fix (a failing test passes through this line)', vscode.CodeActionKind.QuickFix);
    const target: FailureTarget = { uri: document.uri, line };
    action.command = { command: CommandId.Suggest, title: 'Suggest Verified Fix', arguments: [target] };
    return [action];
  }

  private async finished(event: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const output = this.reading.get(event.execution);
    this.reading.delete(event.execution);
    const command = event.execution.commandLine.value.trim();
    // One line per terminal command heard: when no lens or Quick Fix appears, the log says how far the run got.
    this.note(`terminal command ${JSON.stringify(command)} ended (exit ${event.exitCode ?? 'unknown'})${output ? '' : '; its start was not heard, so its output is not read'}`);
    if (!output || !command) return;
    if (event.exitCode === 0) {
      // The same command passing again means the failure is gone; any other command says nothing about it.
      if (this.failure?.command === command) this.failure = undefined;
      this.onOutput(command, 0, '');
      return;
    }
    if (event.exitCode === undefined) return;
    const text = stripAnsi(await output);
    this.onOutput(command, event.exitCode, text);
    this.recordLocations(command, outputLocations(text), event.execution.cwd?.fsPath);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

async function readOutput(execution: vscode.TerminalShellExecution): Promise<string> {
  let output = '';
  try {
    for await (const chunk of execution.read()) {
      output += chunk;
      if (output.length > 2 * KEPT_OUTPUT_CHARS) output = output.slice(-KEPT_OUTPUT_CHARS);
    }
  } catch {
    // A terminal closed mid-command: what was read still names the frames.
  }
  return output.slice(-KEPT_OUTPUT_CHARS);
}

/** The `{ test, message }` VS Code passes to a `testing/message/context` or `testing/message/content` command. */
interface TestMessageArgument {
  readonly test?: vscode.TestItem;
  readonly message?: vscode.TestMessage;
}

/**
 * Where a failed test in the Testing view points: the first stack frame in a workspace source file, else the first
 * source line its message text names, else its location when that is not a test file. Undefined when it names none.
 */
function testFailureTarget(argument: unknown, index: FailureIndex): FailureTarget | undefined {
  const { message, test } = (argument ?? {}) as TestMessageArgument;
  if (!message) return undefined;
  const frames = (message.stackTrace ?? []).flatMap((frame) => (frame.uri && frame.position ? [{ path: frame.uri.fsPath, line: frame.position.line + 1 }] : []));
  const text = stripAnsi(typeof message.message === 'string' ? message.message : message.message.value);
  const where = message.location ? [{ path: message.location.uri.fsPath, line: message.location.range.start.line + 1 }] : [];
  const cwd = test?.uri && vscode.workspace.getWorkspaceFolder(test.uri)?.uri.fsPath;
  const lines = index.recordLocations(test?.label ?? 'a test in the Testing view', [...frames, ...outputLocations(text), ...where], cwd);
  const [file, marked] = [...lines][0] ?? [];
  return file && marked ? { uri: vscode.Uri.file(file), line: [...marked][0] } : undefined;
}

/**
 * The Testing view's "Suggest Verified Fix" on a failed test's message: a request where its stack trace points, else
 * (VS Code 1.100 passes the test item and the message text, no frames; or the frames name only tests) that test run
 * by name and the functions it runs localised.
 */
export async function suggestForTestFailure(argument: unknown, index: FailureIndex, suggest: { execute(arg: unknown): Promise<unknown> }, log: Log, onFailedTest: (name: string) => void = () => undefined): Promise<unknown> {
  const target = testFailureTarget(argument, index);
  if (target) return suggest.execute(target);
  const test = (argument as TestMessageArgument | undefined)?.test;
  const name = testNameOfItem(test);
  if (name) {
    onFailedTest(name);
    const localised: LocaliseTarget = { kind: 'localise', testNames: [name], ...(test?.uri ? { uri: test.uri } : {}) };
    return suggest.execute(localised);
  }
  void log.info('This failure names no line of a source file in the workspace (only tests or dependencies). Open the code it tests, select it and run "Suggest Verified Fix".');
  return undefined;
}
