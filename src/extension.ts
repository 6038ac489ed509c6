// Entry point: wires the VS Code layer together. No logic lives here.
import * as vscode from 'vscode';
import { CandidateBrowser } from './host/candidateBrowser';
import { CandidateStatus } from './host/candidateStatus';
import { CANDIDATE_SCHEME, CandidateDocuments } from './host/candidateDocuments';
import { CommandId, registerCommands } from './host/commands';
import { FailureIndex, suggestForTestFailure } from './host/failureIndex';
import { FailingTestLenses } from './host/failingTestLenses';
import { Log } from './host/log';
import { selectModel, setApiKey } from './host/modelCommands';
import { Runs } from './host/run';
import { exportSession, reopenTask, resetSession } from './host/sessionCommands';
import { buildSnapshot } from './host/model/sessionSnapshot';
import { SessionStore } from './host/sessionStore';
import { onDidChangeSettings, readSettings } from './host/settings';
import { currentProtections, rememberProtections } from './host/model/protectionsStatus';
import { ContextKey, MachineState, UiContext, WorkspaceState } from './host/state';
import { StatsView } from './host/statsView';
import { StatusBar } from './host/statusBar';
import { SuggestCommand } from './host/suggestCommand';
import type { VerifiedFixApi } from './host/testApi';

let runs: Runs | undefined;

export function activate(context: vscode.ExtensionContext): VerifiedFixApi {
  const began = performance.now();
  const push = <T extends vscode.Disposable>(disposable: T): T => {
    context.subscriptions.push(disposable);
    return disposable;
  };
  const log = push(new Log());
  const ui = new UiContext(vscode.commands);
  const machineState = new MachineState(context.globalState);
  const documents = push(new CandidateDocuments());
  push(vscode.workspace.registerTextDocumentContentProvider(CANDIDATE_SCHEME, documents));
  const liveRuns = push(new Runs(documents));
  runs = liveRuns;
  const store = push(new SessionStore(new WorkspaceState(context.workspaceState)));
  const failingTests = push(new FailingTestLenses((m) => log.logger.info(m)));
  const failures = push(new FailureIndex((command, exitCode, output) => failingTests.recordOutput(command, exitCode, output), (m) => log.logger.info(m)));
  const statusBar = push(new StatusBar());
  const snapshot = () => buildSnapshot(store.all(), readSettings().settings.k);
  const candidateStatus = push(new CandidateStatus());
  const browser = push(new CandidateBrowser(log, (uri, startLine, endLine) => void vscode.commands.executeCommand(CommandId.Suggest, { uri, startLine, endLine }), ui, (summary) => candidateStatus.update(summary)));
  const view = push(new StatsView(context.extensionUri, snapshot, {
    openTask: (taskId) => vscode.commands.executeCommand(CommandId.ShowCandidates, taskId),
    protections: () => currentProtections(machineState),
    openSecurity: () => vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(context.extensionUri, 'docs', 'security.md')),
  }, log));
  push(vscode.window.registerWebviewViewProvider(StatsView.viewId, view));
  // The diff tab's title stays short; what the candidate proved is the hover on the lines it changes.
  push(vscode.languages.registerHoverProvider({ scheme: CANDIDATE_SCHEME }, {
    provideHover: (document, position) => {
      const evidence = browser.evidenceAt(document.uri, position.line);
      return evidence ? new vscode.Hover(evidence) : undefined;
    },
  }));
  const suggest = new SuggestCommand({
    log, runs: liveRuns, browser, store, secrets: context.secrets, context: ui, machineState,
    onProgress: (progress) => {
      statusBar.setProgress(progress);
      view.setProgress(progress && { text: progress.text, running: { location: progress.location, tested: progress.tested, total: progress.total } });
    },
    onProtections: (protections) => view.setProtections(rememberProtections(machineState, protections)),
  });
  const refresh = () => {
    statusBar.update(snapshot());
    view.refresh();
    // The view's Export and Reset actions show only when there is a session to export or clear.
    ui.set(ContextKey.HasTasks, store.all().length > 0);
  };
  push(store.onDidChange(refresh));
  push(onDidChangeSettings(refresh));
  refresh();
  if (store.loadProblem) void log.warn(store.loadProblem);

  for (const command of registerCommands({
    [CommandId.Suggest]: (arg) => suggest.execute(arg),
    [CommandId.SuggestForTestFailure]: (arg) => suggestForTestFailure(arg, failures, suggest, log, (name) => failingTests.recordTest(name)),
    [CommandId.FixFailingTests]: () => suggest.execute({ kind: 'localise' }),
    [CommandId.ApplyCandidate]: (arg) => browser.apply(arg),
    [CommandId.NextCandidate]: () => browser.next(),
    [CommandId.ShowVariants]: (which) => browser.showVariant(undefined, typeof which === 'number' ? which : undefined),
    [CommandId.Cancel]: () => suggest.cancel(),
    [CommandId.ShowCandidates]: (taskId) => (typeof taskId === 'string' ? reopenTask(taskId, store, liveRuns, browser, log) : browser.showPicker()),
    [CommandId.ShowPanel]: () => vscode.commands.executeCommand(`${StatsView.viewId}.focus`),
    [CommandId.ExportSession]: (to) => exportSession(store, readSettings().settings.k, log, to instanceof vscode.Uri ? to : undefined),
    [CommandId.ResetSession]: (confirmed) => resetSession(store, log, confirmed === true, readSettings().settings.k),
    [CommandId.SelectModel]: () => selectModel(log),
    [CommandId.SetApiKey]: () => setApiKey(context.secrets, log),
    [CommandId.ShowLog]: () => log.channel.show(),
  })) push(command);

  // Activation runs at every start-up (onStartupFinished, so terminal test runs are seen): it must stay cheap. Nothing
  // here spawns a process or reads the workspace; the sandbox is probed at the first request or panel view.
  const activationMs = performance.now() - began;
  log.logger.info(`activated in ${activationMs.toFixed(1)} ms`);
  return {
    lastResult: () => suggest.lastResult,
    statusBar: () => ({ text: statusBar.text, tooltip: statusBar.tooltip, visible: statusBar.visible }),
    candidateStatus: () => candidateStatus.text,
    snapshot,
    sessionTasks: () => store.all(),
    panelMessages: () => view.messages,
    shownMessages: () => log.messages,
    settingsProblems: () => suggest.settingsProblems,
    currentCandidate: () => browser.currentUri,
    sessionLoadProblem: () => store.loadProblem,
    activationMs: () => activationMs,
    failureLines: (uri) => failures.linesOf(uri),
  };
}

/** Aborts every run and waits (briefly) until its processes are gone and its copies removed. */
export async function deactivate(): Promise<void> {
  await runs?.shutdown();
}
