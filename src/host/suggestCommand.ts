// "Suggest Verified Fix": checks trust and input, runs the engine under a cancellable progress, then presents the result.
import * as vscode from 'vscode';
import { bubblewrapHint } from '../core/sandbox/installHint';
import { sandboxSlowStart } from '../core/sandbox/detect';
import { runFix } from '../core/engine/runFix';
import { UserError } from '../core/base/errors';
import { describeStrength } from '../core/verification/strengthCheck';
import type { FixEvent, FixResult } from '../core/contract/fixRequest';
import type { BrowsableCandidate, BrowsableTask, CandidateBrowser } from './candidateBrowser';
import type { Log } from './log';
import { createProviders } from './providerFactory';
import type { Run, Runs } from './run';
import { formatRunReport } from './runReport';
import { selectionTarget } from './selectionTarget';
import type { SelectionTarget } from './selectionTarget';
import { lineLabel } from './sessionSnapshot';
import type { SessionStore } from './sessionStore';
import { isFailureTarget } from './failureIndex';
import type { FailureTarget } from './failureIndex';
import { readSettings } from './settings';
import { storedCandidate, taskRecord, verifiedCandidates } from './taskRecord';
import { describeProtections, protectsLess } from '../core/contract/protections';
import type { Protections } from '../core/contract/protections';

/** What "Run Again" passes: the same lines of the same document. */
export interface RerunTarget {
  readonly uri: vscode.Uri;
  readonly startLine: number;
  readonly endLine: number;
}

/** What the flow needs from the rest of the host. */
export interface SuggestDeps {
  readonly log: Log;
  readonly runs: Runs;
  readonly browser: CandidateBrowser;
  readonly store: SessionStore;
  readonly secrets: vscode.SecretStorage;
  /** Kept per machine, across workspaces: whether the weaker-sandbox warning was shown here already. */
  readonly machineState: vscode.Memento;
  /** Progress while a request runs, undefined when it ends (status bar and panel). */
  readonly onProgress: (progress: RunProgress | undefined) => void;
  /** What protects this request's test runs, as soon as the engine has chosen (the panel's Protections line). */
  readonly onProtections?: (protections: Protections) => void;
}

/** How far a request is: a sentence, and candidates tested out of those asked for. */
export interface RunProgress {
  /** "sum.js:7: 3 of 10 verified, 1 passing" */
  readonly text: string;
  readonly tested: number;
  readonly total: number;
}

/** The machine-state key of the weaker-sandbox warning. */
const WEAKER_SANDBOX_SHOWN = 'verifiedFix.weakerSandboxWarned';

function isRerunTarget(value: unknown): value is RerunTarget {
  const t = value as RerunTarget;
  return typeof t === 'object' && t !== null && t.uri instanceof vscode.Uri && Number.isInteger(t.startLine) && Number.isInteger(t.endLine);
}

/** One request at a time: a second one is refused plainly (see the README for why not queued). */
export class SuggestCommand {
  /** The request in progress; claimed before the first await, so two quick invocations cannot both start. */
  private active: { location: string; run?: Run } | undefined;
  /** The run whose candidates can still be looked at; replaced (and disposed) by the next request. */
  private current: Run | undefined;
  /** The run whose verified list went up when its verdicts were in, before its strength check finished. */
  private listedEarly: Run | undefined;
  /** The last request's result and the settings problems it reported, for the integration tests. */
  lastResult: FixResult | undefined;
  settingsProblems: readonly string[] = [];

  constructor(private readonly deps: SuggestDeps) {}

  /** The command handler: never throws; errors become a message with "Show Log". */
  async execute(arg?: unknown): Promise<FixResult | undefined> {
    if (this.active) {
      const { run, location } = this.active;
      void this.deps.log
        .warn(`Verified Fix is already running on ${location}; one request runs at a time. Wait for it, or cancel it.`, ...(run ? ['Cancel It'] : []))
        .then((choice) => choice && run?.cancel());
      return undefined;
    }
    this.active = { location: 'another selection' };
    void vscode.commands.executeCommand('setContext', 'verifiedFix.running', true);
    try {
      return await this.suggest(isRerunTarget(arg) || isFailureTarget(arg) ? arg : undefined, this.active);
    } catch (error) {
      this.deps.log.error(error, 'Suggest Verified Fix failed');
      return undefined;
    } finally {
      this.active = undefined;
      this.deps.onProgress(undefined);
      void vscode.commands.executeCommand('setContext', 'verifiedFix.running', false);
    }
  }

  /** "Cancel Running Request": the same as the progress notification's Cancel (which may be hidden in the bell). */
  cancel(): boolean {
    const run = this.active?.run;
    if (!run) {
      void this.deps.log.info('No Verified Fix request is running.');
      return false;
    }
    run.cancel();
    return true;
  }

  private async suggest(rerun: RerunTarget | FailureTarget | undefined, active: { location: string; run?: Run }): Promise<FixResult | undefined> {
    const { log } = this.deps;
    if (!vscode.workspace.isTrusted) {
      void log
        .warn('Verified Fix runs this workspace\'s tests on candidate code, which needs a trusted workspace. Trust it to suggest fixes.', 'Manage Workspace Trust')
        .then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
      return undefined;
    }
    const editor = rerun ? await this.reopen(rerun) : vscode.window.activeTextEditor;
    if (!editor) {
      void log.info('Open a file and select the code to fix, then run "Suggest Verified Fix".');
      return undefined;
    }
    const { document } = editor;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    if (document.uri.scheme !== 'file' || !folder) {
      throw new UserError(`${document.uri.path.split('/').pop()} is not a file in an open workspace folder, so there are no tests to run on it. Open its project folder first.`);
    }
    const { settings, problems } = readSettings(document.uri);
    this.settingsProblems = problems;
    if (problems.length > 0) void log.warn(`Verified Fix settings: ${problems.join(' ')}`);
    const target = await selectionTarget(editor);
    // Taken together with the offsets (no await in between), so an edit made while the providers load cannot shift them.
    const originalText = document.getText();
    // Said in the request's own progress notification, not a toast of its own: one notification per request.
    if (target.implicit) log.note(target.implicit);
    const relativePath = vscode.workspace.asRelativePath(document.uri, false);
    const location = `${relativePath}:${lineLabel(target.startLine, target.endLine)}`;
    active.location = location;
    const { provider, fallbackProvider } = await createProviders(settings, this.deps.secrets, log);

    const run = this.deps.runs.create();
    active.run = run;
    const startedAt = Date.now();
    log.logger.info(`request ${run.id}: ${location}, ${settings.samples} samples, provider ${provider.name}`);
    const result = await this.trackFailure(run, vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Verified Fix: ${location}`, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => run.cancel());
        const report = (text: string, tested = 0) => {
          progress.report({ message: text });
          this.deps.onProgress({ text: `${location}: ${text}`, tested, total: Math.max(tested, settings.samples) });
        };
        const starting = settings.baselineCheck ? 'baseline…' : 'generating candidates…';
        report(target.implicit ? `${target.implicit} ${starting[0].toUpperCase()}${starting.slice(1)}` : starting);
        const onEvent = this.eventHandler(run, { document, relativePath, originalText, target, samples: settings.samples }, report);
        return run.track(
          runFix(
            {
              workspace: folder.uri.fsPath,
              relativePath,
              start: target.start,
              end: target.end,
              unsavedText: originalText,
              languageId: document.languageId,
              ...settings.request,
              provider,
              ...(fallbackProvider ? { fallbackProvider } : {}),
              signal: run.signal,
              logger: log.logger,
            },
            onEvent,
          ),
        );
      },
    ));
    // Only now do the previous request's candidates go: a request that failed leaves them browsable.
    if (this.current !== run) this.current?.dispose();
    this.current = run;
    this.lastResult = result;
    if (result.stoppedEarly?.kind !== 'cancelled') await this.deps.store.add(taskRecord(result, document.uri.toString(), target, startedAt));
    this.present(result, run, document.uri, location, target);
    return result;
  }

  /** Disposes a run whose request failed (its processes and copies are gone already) and rethrows. */
  private async trackFailure<T>(run: Run, work: Thenable<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      run.dispose();
      throw error;
    }
  }

  /** Streams progress ("3 of 10 tested, 1 verified") and offers the first verified candidate at once. */
  private eventHandler(
    run: Run,
    request: { document: vscode.TextDocument; relativePath: string; originalText: string; target: SelectionTarget; samples: number },
    report: (text: string, tested: number) => void,
  ): (event: FixEvent) => void {
    const { log } = this.deps;
    let tested = 0;
    let passing = 0;
    let total = request.samples;
    let finished = false;
    const progress = () => `${tested} of ${total} tested, ${passing} verified${passing > 0 && !finished ? ' (Show Candidates opens it now)' : ''}`;
    return (event) => {
      switch (event.type) {
        case 'started':
          log.logger.info(`testing with "${event.testCommand}" (${describeProtections(event.protections)})`);
          this.deps.onProtections?.(event.protections);
          if (protectsLess(event.protections) && !this.deps.machineState.get<boolean>(WEAKER_SANDBOX_SHOWN)) {
            // Once per machine, as its own warning: what protects less, and the command that fixes it here.
            void this.deps.machineState.update(WEAKER_SANDBOX_SHOWN, true);
            void log.warn(`Verified Fix protects less on this system than it could: ${describeProtections(event.protections)}. ${sandboxSlowStart() ? `${sandboxSlowStart()}.` : `To ${bubblewrapHint()}.`}`);
          }
          break;
        case 'baseline':
          log.logger.info(`baseline: ${event.verdict.status}${event.verdict.reason ? ` (${event.verdict.reason})` : ''}, ${event.verdict.durationMs} ms`);
          report(tested === 0 ? `baseline ${event.verdict.status}; testing candidates…` : progress(), tested);
          break;
        case 'generated':
        case 'invalid':
          break;
        case 'lost':
          log.logger.warn(`sample lost: ${event.reason}`);
          break;
        case 'verdict': {
          tested++;
          const c = event.candidate;
          log.logger.info(`candidate ${c.index + 1}: ${c.verdict.status}${c.verdict.reason ? ` (${c.verdict.reason})` : ''}, ${c.runs.map((r) => r.status).join('/')}`);
          if (c.verified && c.duplicateOf === null && ++passing === 1 && !run.signal.aborted) {
            // No toast of its own (it would outlive the run): the first pass is browsable at once, and the progress says how.
            this.deps.browser.present(this.task(run, request.document.uri, request.originalText, request.target, [storedCandidate(c)], false), false);
          }
          report(progress(), tested);
          break;
        }
        case 'fallback':
          total += request.samples;
          report(`${tested} tested, none verified; asking ${event.provider}…`, tested);
          break;
        case 'repairRound':
          total += request.samples;
          log.logger.info(`round ${event.round}: asking ${event.provider} for different fixes after ${event.failed} failed candidates`);
          report(`round ${event.round}: asking for different fixes after ${event.failed} failed candidate${event.failed === 1 ? '' : 's'}…`, tested);
          break;
        case 'warning':
          void log.warn(`Verified Fix: ${event.message}`);
          break;
        case 'verdicts': {
          // Every verdict is in: the list goes up now, and is re-ranked in place when the strength check ends.
          const verified = verifiedCandidates(event.result);
          finished = true;
          report(`${verified.length} verified; checking how firmly the tests pin ${verified.length === 1 ? 'it' : 'them'}…`, tested);
          const current = vscode.workspace.textDocuments.find((d) => d.uri.toString() === request.document.uri.toString());
          if (run.signal.aborted || event.result.baselinePassed || (current && current.getText() !== request.originalText)) break;
          this.listedEarly = run;
          this.deps.browser.present(this.task(run, request.document.uri, request.originalText, request.target, verified, false), true);
          break;
        }
        case 'strength':
          log.logger.info(`candidate ${event.index + 1}: ${describeStrength(event.strength)}`);
          break;
        case 'done':
          finished = true;
          break;
        default:
          // Events added to the engine later are logged rather than lost; the build does not depend on knowing them all.
          log.logger.info(`engine: ${JSON.stringify(event)}`);
      }
    };
  }

  private task(run: Run, uri: vscode.Uri, originalText: string, target: SelectionTarget, candidates: BrowsableCandidate[], baselinePassed: boolean): BrowsableTask {
    return {
      run,
      documentUri: uri,
      relativePath: vscode.workspace.asRelativePath(uri, false),
      originalText,
      start: target.start,
      end: target.end,
      startLine: target.startLine,
      endLine: target.endLine,
      candidates,
      baselinePassed,
    };
  }

  /** Shows the outcome without waiting for the user, so the command's promise settles when the run does. */
  private present(result: FixResult, run: Run, uri: vscode.Uri, location: string, target: SelectionTarget): void {
    const { log, browser } = this.deps;
    const verified = verifiedCandidates(result);
    if (this.listedEarly !== run) browser.present(this.task(run, uri, result.originalText, target, verified, result.baselinePassed), false);
    const details = (): void => {
      const report = run.addDocument('report', `${location.replace(/[:/\\]/g, '_')}.md`, formatRunReport(result, location));
      // Rendered, as a report is read; its source only where the Markdown preview is not there.
      void vscode.commands.executeCommand('markdown.showPreview', report).then(undefined, () => vscode.window.showTextDocument(report, { preview: true }));
    };
    if (result.stoppedEarly?.kind === 'cancelled') {
      void log.info(`Cancelled ${location}: ${result.samples} candidate(s) tested, ${verified.length} verified. Cancelled requests are left out of the statistics.`);
      if (verified.length > 0) browser.showPicker();
      return;
    }
    if (result.baselinePassed) {
      void log
        .warn(`The tests already pass on the unmodified code of ${location}, so they do not catch this bug and a passing candidate proves little.`, ...(verified.length > 0 ? ['Show Candidates', 'Details'] : ['Details']))
        .then((choice) => (choice === 'Show Candidates' ? browser.showPicker() : choice === 'Details' ? details() : undefined));
      return;
    }
    if (verified.length > 0 && this.listedEarly === run) {
      browser.update(this.task(run, uri, result.originalText, target, verified, result.baselinePassed));
      const weak = result.verified.filter((i) => result.candidates.find((c) => c.index === i)?.strength?.weak).length;
      if (weak > 0) void log.warn(`Weak tests at ${location}: ${weak} of ${verified.length} verified fix(es) have variants the tests also accept. Review before applying.`);
      return;
    }
    if (verified.length > 0) {
      // An early candidate may already have been applied (or the file edited) while the rest ran: then say so
      // instead of pushing a list whose candidates Apply would refuse.
      const current = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (current && current.getText() !== result.originalText) {
        void log
          .info(`${verified.length} verified fix(es) for ${location}; the file changed during the request, so they no longer apply as they are.`, 'Show Candidates')
          .then((choice) => choice && browser.showPicker());
      } else {
        browser.showPicker();
      }
      return;
    }
    const flaky = result.candidates.filter((c) => c.flaky).length;
    const why = result.samples === 0 ? ` — no candidates were produced${result.lost.length ? ` (${result.lost[0]})` : ''}` : flaky ? `; ${flaky} passed only some of their runs (flaky), so none is verified` : '';
    const early = result.stoppedEarly ? ` Stopped early: ${result.stoppedEarly.message}.` : '';
    // A next step, not only a verdict: more samples, a model, a wider selection, or why each candidate failed.
    const next = ' Next: more samples, a model provider or a wider selection (Settings), or read why each failed (Details).';
    void log.info(`No passing fix found (${result.passed} of ${result.samples} passed) for ${location}${why}.${early}${next}`, 'Details', 'Settings').then((choice) => {
      if (choice === 'Details') details();
      if (choice === 'Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'verifiedFix');
    });
  }

  /** Opens `target`'s document with its lines selected, for "Run Again". */
  /** Opens the target's document with its lines selected, or, for a failure's line, the cursor on it (the enclosing function is taken). */
  private async reopen(target: RerunTarget | FailureTarget): Promise<vscode.TextEditor> {
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
}
