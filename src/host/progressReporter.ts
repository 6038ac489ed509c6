// One request's engine events turned into progress text, log lines, the weaker-sandbox warning and the early candidate list.
import type * as vscode from 'vscode';
import { bubblewrapHint } from '../core/sandbox/installHint';
import { sandboxSlowStart } from '../core/sandbox/detect';
import { describeEvent } from '../core/engine/describeEvent';
import type { FixEvent } from '../core/contract/fixRequest';
import { taskOf } from './candidateBrowser';
import type { BrowsableRequest, CandidateBrowser } from './candidateBrowser';
import { documentChanged } from './documentChanged';
import type { Log } from './log';
import { storedCandidate, verifiedCandidates } from './model/taskRecord';
import type { MachineState } from './state';
import { describeProtections, protectsLess } from '../core/contract/protections';
import type { Protections } from '../core/contract/protections';

/** How far a request is: a sentence, and candidates tested out of those asked for. */
export interface RunProgress {
  /** "sum.js:7: 3 of 10 verified, 1 passing" */
  readonly text: string;
  readonly tested: number;
  readonly total: number;
  /** "sum.js:7" */
  readonly location: string;
}

/** What the reporter tells, and where. */
export interface ReporterDeps {
  readonly log: Log;
  readonly browser: CandidateBrowser;
  readonly machineState: MachineState;
  /** The request's notification. */
  readonly progress: vscode.Progress<{ message?: string }>;
  /** Status bar and panel. */
  readonly onProgress: (progress: RunProgress) => void;
  readonly onProtections?: (protections: Protections) => void;
  /** Whether the list may open by itself now (host/userActivity.ts); absent: never. */
  readonly mayOpenList?: () => boolean;
}

/** Streams progress ("3 of 10 tested, 1 verified") and offers the first verified candidate at once. */
export class ProgressReporter {
  /** The engine's last `progress` counts: this reporter words them, it does not recount. */
  private counted = { tested: 0, requested: 0, verified: 0 };
  private finished = false;
  private listedFirst = false;
  private listed = false;
  private opened = false;

  constructor(
    private readonly deps: ReporterDeps,
    private readonly request: BrowsableRequest & { readonly location: string },
  ) {}

  /** Whether the verified list went up when the verdicts were in (the outcome then re-ranks it instead). */
  get alreadyListed(): boolean {
    return this.listed;
  }

  /** Whether the list was opened when the verdicts came in (only if the user had not moved on). */
  get listOpened(): boolean {
    return this.opened;
  }

  /** A line in the notification, the status bar and the panel. */
  report(text: string): void {
    const { tested, requested } = this.counted;
    this.deps.progress.report({ message: text });
    this.deps.onProgress({ text: `${this.request.location}: ${text}`, tested, total: Math.max(tested, requested), location: this.request.location });
  }

  /** The engine's event callback. */
  readonly onEvent = (event: FixEvent): void => {
    const { log } = this.deps;
    const line = describeEvent(event);
    if (line) log.logger[line.level](line.text);
    switch (event.type) {
      case 'started':
        return this.started(event.protections);
      case 'baseline':
        return this.report(this.counted.tested === 0 ? `baseline ${event.verdict.status}; testing candidates…` : this.counts());
      case 'progress':
        this.counted = { tested: event.tested, requested: event.requested, verified: event.verified };
        return this.report(this.counts());
      case 'lost':
        return;
      case 'verdict':
        return this.verdict(event.candidate);
      case 'fallback':
        return this.report(`${this.counted.tested} tested, none verified; asking ${event.provider}…`);
      case 'repairRound':
        return this.report(`round ${event.round}: asking for different fixes after ${event.failed} failed candidate${event.failed === 1 ? '' : 's'}…`);
      case 'warning':
        void log.warn(`Verified Fix: ${event.message}`);
        return;
      case 'verdicts':
        return this.verdicts(event.result);
      case 'strength':
      case 'behaviour':
        return;
      case 'done':
        this.finished = true;
        return;
      default: {
        // Exhaustive for the events known at build time; one added to the engine later is logged rather than lost.
        const unknown: never = event;
        log.logger.info(`engine: ${JSON.stringify(unknown)}`);
      }
    }
  };

  private counts(): string {
    const { tested, requested, verified } = this.counted;
    return `${tested} of ${Math.max(tested, requested)} tested, ${verified} verified${verified > 0 && !this.finished ? ' (Show Candidates opens it now)' : ''}`;
  }

  private started(protections: Protections): void {
    const { log, machineState } = this.deps;
    this.deps.onProtections?.(protections);
    if (protectsLess(protections) && !machineState.weakerSandboxWarned) {
      // Once per machine, as its own warning: what protects less, and the command that fixes it here.
      void machineState.setWeakerSandboxWarned();
      void log.warn(`Verified Fix protects less on this system than it could: ${describeProtections(protections)}. ${sandboxSlowStart() ? `${sandboxSlowStart()}.` : `To ${bubblewrapHint()}.`}`);
    }
  }

  private verdict(c: Extract<FixEvent, { type: 'verdict' }>['candidate']): void {
    if (!c.verified || c.duplicateOf !== null || this.listedFirst || this.request.run.signal.aborted) return;
    // No toast of its own (it would outlive the run): the first pass is browsable at once, and the progress says how.
    this.listedFirst = true;
    this.deps.browser.present(taskOf(this.request, [storedCandidate(c)], false), false);
  }

  /** Every verdict is in: the list goes up now, and is re-ranked in place when the strength check ends. */
  private verdicts(result: Extract<FixEvent, { type: 'verdicts' }>['result']): void {
    const verified = verifiedCandidates(result);
    this.finished = true;
    this.report(`${verified.length} verified; checking how firmly the tests pin ${verified.length === 1 ? 'it' : 'them'}…`);
    if (this.request.run.signal.aborted || result.baselinePassed || documentChanged(this.request.documentUri, this.request.originalText)) return;
    this.listed = true;
    this.opened = this.deps.mayOpenList?.() ?? false;
    this.deps.browser.present(taskOf(this.request, verified, false), this.opened);
  }
}
