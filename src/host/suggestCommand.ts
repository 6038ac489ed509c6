// "Suggest Verified Fix": checks trust and input, runs the engine under a cancellable progress, then presents the result.
import * as vscode from 'vscode';
import type { Protections } from '../core/contract/protections';
import { runFix } from '../core/engine/runFix';
import { UserError } from '../core/base/errors';
import type { FixResult } from '../core/contract/fixRequest';
import { taskOf } from './candidateBrowser';
import type { BrowsableRequest, CandidateBrowser } from './candidateBrowser';
import { documentChanged } from './documentChanged';
import { isFailureTarget } from './failureIndex';
import type { FailureTarget } from './failureIndex';
import type { Log } from './log';
import { lineLabel } from './model/labels';
import { outcomeOf } from './model/outcome';
import { taskRecord, verifiedCandidates } from './model/taskRecord';
import { presentOutcome } from './outcomePresenter';
import { ProgressReporter } from './progressReporter';
import type { RunProgress } from './progressReporter';
import { createProviders } from './providerFactory';
import { isRerunTarget, reopen } from './rerunTarget';
import { isLocaliseTarget, labelOf, localise, localisedTryOf, targetOfTry } from './localiseTarget';
import type { RankedPlace } from './localiseTarget';
import { localisedFromTry, nextTry, tryShare } from './model/localisedTask';
import type { LocalisedTry } from './model/localisedTask';
import { CommandId } from './commands';
import type { RerunTarget } from './rerunTarget';
import type { Run, Runs } from './run';
import { selectionTarget } from './selectionTarget';
import type { SessionStore } from './sessionStore';
import { readSettings } from './settings';
import type { Settings } from './settings';
import { ContextKey } from './state';
import { arrive, CHECKS_CANCELLED } from './model/requestSlot';
import type { ActiveRequest } from './model/requestSlot';
import { UserActivity } from './userActivity';
import type { MachineState, UiContext } from './state';

/** What the flow needs from the rest of the host. */
export interface SuggestDeps {
  readonly log: Log;
  readonly runs: Runs;
  readonly browser: CandidateBrowser;
  readonly store: SessionStore;
  readonly secrets: vscode.SecretStorage;
  readonly context: UiContext;
  /** Kept per machine, across workspaces: whether the weaker-sandbox warning was shown here already. */
  readonly machineState: MachineState;
  /** Progress while a request runs, undefined when it ends (status bar and panel). */
  readonly onProgress: (progress: RunProgress | undefined) => void;
  /** What protects this request's test runs, as soon as the engine has chosen (the panel's Protections line). */
  readonly onProtections?: (protections: Protections) => void;
}

/** A request whose input is checked, before any provider is built. */
interface Prepared extends Omit<BrowsableRequest, 'run'> {
  readonly document: vscode.TextDocument;
  readonly folder: vscode.WorkspaceFolder;
  readonly settings: Settings;
  readonly location: string;
  readonly implicit?: string;
}

/**
 * One request at a time: a second one is refused plainly while candidates are verified (see the README for why not
 * queued); once the first one's list is shown and only its strength and behaviour checks are left, the new request
 * cancels those checks and starts when the first has ended (`requestSlot.ts`).
 */
export class SuggestCommand {
  /** The request in progress; claimed before the first await, so two quick invocations cannot both start. */
  private active: (ActiveRequest & { run?: Run }) | undefined;
  /** The last request's result and the settings problems it reported, for the integration tests. */
  lastResult: FixResult | undefined;
  settingsProblems: readonly string[] = [];

  constructor(private readonly deps: SuggestDeps) {}

  /** The command handler: never throws; errors become a message with "Show Log". */
  async execute(arg?: unknown): Promise<FixResult | undefined> {
    const arrival = arrive(this.active);
    if (arrival.kind === 'refuse') {
      const run = this.active?.run;
      void this.deps.log
        .warn(`Verified Fix is already running on ${arrival.location}; one request runs at a time. Wait for it, or cancel it.`, ...(run ? ['Cancel It'] : []))
        .then((choice) => choice && run?.cancel());
      return undefined;
    }
    if (arrival.kind === 'preempt') {
      this.deps.log.logger.info(`${CHECKS_CANCELLED} (the request on ${arrival.location} had shown its list)`);
      const previous = this.active;
      // Claimed again once the first request has ended: a third request meanwhile is refused.
      if (previous) await previous.ended;
      if (this.active) return this.execute(arg);
    }
    let end = () => undefined as void;
    this.active = { location: 'another selection', phase: 'verifying', ended: new Promise<void>((resolve) => (end = resolve)) };
    this.deps.context.set(ContextKey.Running, true);
    try {
      // A failing test rather than a place: the tests run once and the likeliest function is the request's target.
      const localised = isLocaliseTarget(arg) && vscode.workspace.isTrusted ? await localise(arg, this.deps.log) : undefined;
      if (isLocaliseTarget(arg) && vscode.workspace.isTrusted && !localised) return undefined;
      const prepared = await this.prepare(localised?.target ?? (isRerunTarget(arg) || isFailureTarget(arg) ? arg : undefined));
      if (!prepared) return undefined;
      const request = localised ? { ...prepared, implicit: localised.implicit } : prepared;
      if (localised) this.deps.log.note(localised.implicit);
      this.active.location = request.location;
      // A localised try (the first, or "Try …" after it) spends its share of the one budget the tries share.
      const plan = localised?.target.localised ?? localisedTryOf(arg);
      const result = await this.suggest(request, this.active, plan);
      const next = plan && result.verified.length === 0 ? nextTry(plan, result.samples) : undefined;
      if (next) this.offerNext(next);
      return result;
    } catch (error) {
      this.deps.log.error(error, 'Suggest Verified Fix failed');
      return undefined;
    } finally {
      this.active = undefined;
      this.deps.onProgress(undefined);
      this.deps.context.set(ContextKey.Running, false);
      end();
    }
  }

  /** No fix in this function: the next one the failing tests run, one click away (its own request and task, its share of what is left). */
  private offerNext(next: LocalisedTry<RankedPlace>): void {
    const labels = next.functions.slice(next.index).map(labelOf);
    const action = `Try ${labels[0]}`;
    void this.deps.log.info(`No verified fix in ${next.functions[next.index - 1].name}, where the failing tests point. Next: ${labels.join(', ')} (${next.remaining} of the samples left).`, action).then((choice) => {
      if (choice === action) void vscode.commands.executeCommand(CommandId.Suggest, targetOfTry(next));
    });
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

  /** Trust, the editor, the workspace folder, the settings and the target; undefined when the user was told why not. */
  private async prepare(rerun: RerunTarget | FailureTarget | undefined): Promise<Prepared | undefined> {
    const { log } = this.deps;
    if (!vscode.workspace.isTrusted) {
      void log
        .warn('Verified Fix runs this workspace\'s tests on candidate code, which needs a trusted workspace. Trust it to suggest fixes.', 'Manage Workspace Trust')
        .then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
      return undefined;
    }
    const editor = rerun ? await reopen(rerun) : vscode.window.activeTextEditor;
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
    return { document, documentUri: document.uri, folder, settings, target, originalText, relativePath, location, implicit: target.implicit };
  }

  private async suggest(prepared: Prepared, active: ActiveRequest & { run?: Run }, plan?: LocalisedTry): Promise<FixResult> {
    const { log } = this.deps;
    const { document, settings, target, location } = prepared;
    const { provider, fallbackProvider } = await createProviders(settings, this.deps.secrets, log);
    const run = this.deps.runs.create();
    active.run = run;
    active.cancel = (reason) => run.cancel(reason);
    const samples = plan ? tryShare(plan) : settings.samples;
    const request = { ...prepared, run, samples };
    const startedAt = Date.now();
    log.logger.info(`request ${run.id}: ${location}, ${samples} samples${plan ? ` (this function's share of ${plan.remaining} left of the localised tries' budget)` : ''}, provider ${provider.name}`);
    let reporter: ProgressReporter | undefined;
    // From here on, a user who types, clicks or switches editors has moved on: the list then waits to be asked for.
    const activity = new UserActivity(document);
    const result = await this.trackFailure(run, vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Verified Fix: ${location}`, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => run.cancel());
        reporter = new ProgressReporter({ ...this.deps, progress, mayOpenList: () => activity.idle }, request);
        const starting = settings.baselineCheck ? 'baseline…' : 'generating candidates…';
        reporter.report(prepared.implicit ? `${prepared.implicit} ${starting[0].toUpperCase()}${starting.slice(1)}` : starting);
        return run.track(runFix({
          workspace: prepared.folder.uri.fsPath,
          relativePath: prepared.relativePath,
          start: target.start,
          end: target.end,
          unsavedText: prepared.originalText,
          languageId: document.languageId,
          ...settings.request,
          samples,
          provider,
          ...(fallbackProvider ? { fallbackProvider } : {}),
          signal: run.signal,
          logger: log.logger,
        }, (event) => {
          // From the verdicts on, only the checks are left: a new request may end them (requestSlot.ts).
          if (event.type === 'verdicts') active.phase = 'checks';
          reporter?.onEvent(event);
        }));
      },
    )).finally(() => activity.dispose());
    this.lastResult = result;
    const idle = activity.idle;
    // Neither a cancel nor a baseline that ran out of time says anything about the candidates (the CLI keeps neither).
    if (result.stoppedEarly?.kind !== 'cancelled' && result.stoppedEarly?.kind !== 'baselineTimeout') await this.deps.store.add(taskRecord(result, document.uri.toString(), target, startedAt, plan && localisedFromTry(plan)));
    const outcome = outcomeOf(result, {
      location, alreadyListed: reporter?.alreadyListed ?? false, listOpened: reporter?.listOpened ?? false, idle, documentChanged: documentChanged(document.uri, result.originalText),
    });
    // Only now do the previous request's candidates go (unless this one listed its own early): a request that failed leaves them browsable.
    presentOutcome(outcome, taskOf({ ...request, originalText: result.originalText }, verifiedCandidates(result), result.baselinePassed), result, location, this.deps);
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
}
