// Every command id in one place (matching package.json's contributes.commands) and the one registerCommands().
import * as vscode from 'vscode';

/** Command ids; package.json contributes exactly these (the integration tests compare both lists). */
export enum CommandId {
  Suggest = 'verifiedFix.suggest',
  SuggestForTestFailure = 'verifiedFix.suggestForTestFailure',
  FixFailingTests = 'verifiedFix.fixFailingTests',
  ApplyCandidate = 'verifiedFix.applyCandidate',
  NextCandidate = 'verifiedFix.nextCandidate',
  ShowVariants = 'verifiedFix.showVariants',
  Cancel = 'verifiedFix.cancel',
  ShowCandidates = 'verifiedFix.showCandidates',
  ShowPanel = 'verifiedFix.showPanel',
  ExportSession = 'verifiedFix.exportSession',
  ResetSession = 'verifiedFix.resetSession',
  SelectModel = 'verifiedFix.selectModel',
  SetApiKey = 'verifiedFix.setApiKey',
  ShowLog = 'verifiedFix.showLog',
}

/** One handler per command; arguments are whatever VS Code or the caller passes (a URI from a menu, a task id). */
export type CommandHandlers = { readonly [id in CommandId]: (...args: unknown[]) => unknown };

/** Registers every handler; the returned disposables go into `context.subscriptions`. */
export function registerCommands(handlers: CommandHandlers): vscode.Disposable[] {
  return (Object.values(CommandId) as CommandId[]).map((id) => vscode.commands.registerCommand(id, handlers[id]));
}
