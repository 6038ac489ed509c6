// How one candidate is verified: the static check, the failing tests first, the full command, confirmation runs,
// each judged against what the baseline showed.
import type { Evidence, SetAsideRun, TestEvidence, Verdict } from '../contract/fixRequest';
import { describeTestRunEdits, findTestRunEdits } from '../security/testRunEdits';
import { FlakyTests, flakyNote } from './flakyTests';
import { errorVerdict } from '../execution/executor';
import type { TestExecutor } from '../execution/executor';
import { RunPriority } from '../execution/runQueue';
import type { Slot } from '../execution/runQueue';
import { candidateScope } from './reachScope';
import type { ReachScope } from './reachScope';
import type { VariantOf } from './strengthRuns';
import type { WideRun } from '../testCommand/wideRuns';
import { StageOneRuns } from './stageOneRuns';
import { HeadStarts } from './headStarts';
import type { HeadStartsOptions } from './headStarts';
import { LimitedRuns } from './limitedRuns';
import type { FullRun, LimitedRunsOptions } from './limitedRuns';

/**
 * What verification needs: the runs' executor, slot, limit and judging (LimitedRunsOptions; the slot is taken per run,
 * not per candidate: a short first run does not wait behind another's full suite, and a confirmation can run beside
 * its first full run), when head starts begin (HeadStartsOptions; `testTimeoutMs` is also what a confirmation that
 * timed out gets a multiple of, and without it there is no such retry), and:
 */
export interface VerifierOptions extends LimitedRunsOptions, HeadStartsOptions {
  /** The whole suite for a run that holds every slot (the top-ranked fix's full run, once nothing else runs). */
  readonly wide?: WideRun;
  readonly requiredRuns: number;
  /** Confirmations repeat only the fixed tests where stage 1 could select them (default); false: the whole command. */
  readonly cheapConfirmation?: boolean;
  /** The unmodified file text: tests a candidate broke are re-run on it to tell flaky tests. Absent: never. */
  readonly originalText?: string;
  /** Where the selection starts in `originalText`: with the baseline's reach, survivors run only the reaching tests. */
  readonly selectionStart?: number;
  /** Every survivor runs the whole command (`--full-suite`), whatever the reach. */
  readonly fullSuite?: boolean;
  /**
   * The file under repair (relative to the workspace) and the request's parallel slots: with both, candidates' stage-1
   * runs that start together share started runners where the runner allows it (StageOneBatch).
   */
  readonly sharing?: { readonly relativePath: string; readonly parallel: number };
}

/** A candidate's runs so far, each with its per-test evidence, and those set aside. */
interface Runs {
  readonly verdicts: Verdict[];
  readonly tests: Array<TestEvidence | undefined>;
  /** Per run: whether it repeated only the fixed tests (a cheap confirmation). */
  readonly fixedOnly: boolean[];
  readonly setAside: SetAsideRun[];
  /** The reaching tests its full runs are narrowed to; absent: the whole command. */
  readonly scope?: ReachScope;
}

/** What a request's candidates leave for their variants, shared by the verifiers `through` makes. */
interface Kept {
  /** How long each candidate's failing-tests run took: its variants' first stage gets a multiple of it. */
  readonly failingTestsMs: Map<number, number>;
  /** The reaching tests each candidate's full runs were narrowed to, with the selection it replaced. */
  readonly scopes: Map<number, { readonly scope: ReachScope; readonly selection: string }>;
}

/** A confirmation that timed out runs once more with this many times the request's per-run limit. */
const CONFIRM_RETRY_SLOWDOWN = 2;

/** Verifies candidates of one request; `verify` resolves with the runs, or undefined when a cancel left none. */
export class Verifier {
  private flaky: FlakyTests | undefined;
  /** Candidates that passed their failing tests and whose full runs have not given a verdict yet. */
  private readonly survivors = new Map<number, TestEvidence>();
  /** Runs under the baseline's limit, and full runs judged against it. */
  private readonly runs: LimitedRuns;
  /** Full runs started while the baseline ran (headStart); each taken by its candidate's verification. */
  private readonly headStarts: HeadStarts;
  /** Stage 1's runs: the sample file and the shared processes, worked out once per verifier. */
  private readonly stageOne: StageOneRuns;
  constructor(private readonly options: VerifierOptions, private readonly kept: Kept = { failingTestsMs: new Map(), scopes: new Map() }) {
    this.runs = new LimitedRuns(options);
    this.headStarts = new HeadStarts(options, this.runs);
    this.stageOne = new StageOneRuns({
      ...options,
      limitedRun: (fileText, label, runOptions, ownMs, priority) => this.runs.limited(fileText, label, runOptions, { ownMs, priority }),
      baselineLimit: () => this.runs.baselineLimit,
    });
  }

  /** The same verifier running through another executor and slot (the strength check's metered ones). */
  through(executor: TestExecutor, slot: Slot): Verifier {
    return new Verifier({ ...this.options, executor, slot }, this.kept);
  }

  /** How long candidate `index`'s run of the failing tests took, when it had one. */
  failingTestsRunMs(index: number): number | undefined {
    return this.kept.failingTestsMs.get(index);
  }

  /** The reaching tests candidate `index` was verified on, when its full runs ran only those. */
  reachingTestsOf(index: number): { ran: number; cannotReach: number } | undefined {
    const scope = this.kept.scopes.get(index)?.scope;
    return scope ? { ran: scope.ran, cannotReach: scope.cannotReach } : undefined;
  }

  async verify(index: number, selection: string, replacement: string, fileText: string): Promise<{ runs: Verdict[]; evidence: Evidence } | undefined> {
    const { executor, requiredRuns, signal } = this.options;
    // Edits that change how the tests run rather than what the code does are refused before anything runs.
    const edits = findTestRunEdits(this.options.languageId, selection, replacement);
    if (edits.length > 0) return { runs: [{ ...errorVerdict(describeTestRunEdits(edits), 0, 'staticCheck'), status: 'fail' }], evidence: {} };
    const head = this.headStarts.take(index);
    // A candidate that still fails the baseline's failing tests costs one short run and is a failed sample.
    const first = await this.stageOne.run(fileText, `c${index}f`, undefined, { name: `#${index + 1}`, fullRunUnderway: head !== undefined });
    if (first && (first.verdict.cancelled || first.verdict.status !== 'pass')) head?.drop();
    if (first?.verdict.cancelled) return undefined;
    if (first && first.verdict.status !== 'pass') return { runs: [first.verdict], evidence: { stage: 'failing-tests', tests: first.tests } };
    // Until its verdict is in: a stop (the total timeout) from here on leaves a candidate that passed its failing tests.
    if (first) this.survivors.set(index, first.tests);
    if (first) this.kept.failingTestsMs.set(index, first.verdict.durationMs);
    // A head start runs the whole command: its candidate is not narrowed to the reaching tests.
    const scope = first && !head ? candidateScope(await this.options.reference, this.options, `candidate #${index + 1}`, selection, replacement) : undefined;
    const fullRun = () => (head ? this.headStarts.fullRun(head, index, fileText) : this.runs.full(fileText, `c${index}`, { priority: first ? RunPriority.full : RunPriority.first, scope }));
    if (scope) this.kept.scopes.set(index, { scope, selection });
    const runs: Runs = { verdicts: [], tests: [], fixedOnly: [], setAside: [], ...(scope ? { scope } : {}) };
    const push = (run: { verdict: Verdict; tests?: TestEvidence; fixedOnly?: boolean }) => (runs.verdicts.push(run.verdict), runs.tests.push(run.tests), runs.fixedOnly.push(run.fixedOnly === true));
    // Past the failing tests a pass is likely: where runs cannot reach each other, its confirmations run beside it.
    if (first && !executor.runsCanInterfere && requiredRuns > 1) {
      // Stage 1 ran the fixed tests alone: exactly what a cheap confirmation runs, so it counts as the first one and
      // one run fewer starts. A round after other candidates' in a shared process counts too: it started only once
      // the checks found nothing their rounds left, and the pass it repeats is the candidate's own full run, in a
      // process of its own, so no round can verify a candidate.
      const stageOne = this.cheapConfirmation ? 1 : 0;
      const all = await Promise.all(Array.from({ length: requiredRuns - stageOne }, (_, i) => (i === 0 ? fullRun() : this.confirm(fileText, `c${index}r${i + 1}`, false, first, RunPriority.full, scope))));
      if (all[0].verdict.cancelled) return undefined;
      // A cheap confirmation ran only the fixed tests: beside a full run that failed it proves nothing about the tests
      // that broke, so it must not make that failure look flaky.
      all.filter((r) => !r.verdict.cancelled && (all[0].verdict.status === 'pass' || !('fixedOnly' in r && r.fixedOnly))).forEach(push);
      // After the others: the full run stays the first of the runs, as the words for them expect (describeRuns).
      if (stageOne && all[0].verdict.status === 'pass') push({ ...first, fixedOnly: true });
      const confirming = runs.verdicts.some((v) => v.status === 'pass');
      for (let at = 0; at < all.length && at < runs.verdicts.length && !signal.aborted; at++) {
        if (runs.verdicts[at].status !== 'pass') await this.recheck(fileText, `c${index}x${at + 1}`, false, runs, at, confirming && at > 0);
      }
    } else {
      const full = await fullRun();
      if (full.verdict.cancelled) return undefined;
      push(full);
      if (full.verdict.status !== 'pass') await this.recheck(fileText, `c${index}x1`, false, runs, 0, false);
      // Confirmation runs catch flaky passes: a pass is shown only if it repeats (the last one alone where runs can
      // interfere). A run set aside (timed out, or failed only on tests that are flaky on the unmodified code) does
      // not count either way; one that failed for the candidate ends the confirmations.
      const passes = () => runs.verdicts.filter((v) => v.status === 'pass').length;
      const counted = () => runs.verdicts.filter((_, i) => !runs.setAside.some((s) => s.run === i));
      while (runs.verdicts[runs.verdicts.length - 1].status === 'pass' && counted().every((v) => v.status === 'pass') && passes() < requiredRuns && !signal.aborted) {
        const alone = executor.runsCanInterfere && passes() === requiredRuns - 1;
        const at = runs.verdicts.length;
        const again = await this.confirm(fileText, `c${index}r${at + 1}`, alone, first, RunPriority.confirm, scope);
        if (again.verdict.cancelled) break;
        push(again);
        if (again.verdict.status !== 'pass') await this.recheck(fileText, `c${index}x${at + 1}`, alone, runs, at, true);
      }
    }
    this.survivors.delete(index);
    const failed = runs.verdicts.map((_, i) => i).filter((i) => runs.verdicts[i].status !== 'pass' && !runs.setAside.some((s) => s.run === i));
    // The evidence of the run that failed it, or of its last full run: a cheap confirmation saw only the fixed tests.
    const tests = runs.tests[failed[failed.length - 1] ?? runs.fixedOnly.lastIndexOf(false)];
    const cheap = first && runs.fixedOnly.includes(true) ? { confirmedOn: first.tests.fixed } : {};
    return {
      runs: runs.verdicts,
      evidence: {
        ...(first || tests ? { stage: 'full' as const } : {}), ...(tests ? { tests } : {}), ...(runs.setAside.length ? { setAside: runs.setAside } : {}), ...cheap,
        ...(scope ? { reachingTests: { ran: scope.ran, cannotReach: scope.cannotReach } } : {}),
      },
    };
  }

  /** Starts candidate `index`'s full run beside the baseline where that leaves a slot idle (HeadStarts.begin). */
  headStart(index: number, selection: string, replacement: string, fileText: string): void {
    this.headStarts.begin(index, selection, replacement, fileText);
  }

  /**
   * A run that did not pass, looked at again before it counts against the candidate: a confirmation that timed out
   * runs once more with a longer limit; one whose only failures are tests that passed on the baseline has those
   * tests run on the unmodified code, and when they fail there too the run is set aside (flaky tests) and the
   * candidate runs again; any other failure after a pass runs once more, so a flaky verdict rests on more than one run.
   */
  private async recheck(fileText: string, label: string, alone: boolean, runs: Runs, at: number, confirming: boolean): Promise<void> {
    const verdict = runs.verdicts[at];
    const tests = runs.tests[at];
    const { testTimeoutMs } = this.options;
    let why: string | undefined;
    let timeoutMs: number | undefined;
    if (verdict.status === 'timeout') {
      if (!confirming || !testTimeoutMs) return;
      timeoutMs = CONFIRM_RETRY_SLOWDOWN * testTimeoutMs;
      why = `${verdict.reason ?? 'timed out'}: re-run with ${CONFIRM_RETRY_SLOWDOWN}× the limit`;
    } else {
      const onlyBroke = verdict.status === 'fail' && tests && tests.broke.length > 0 && tests.stillFailing.length === 0;
      const finder = onlyBroke ? await this.flakyTests() : undefined;
      const flaky = finder && tests ? await finder.explain(tests.broke, confirming) : [];
      if (flaky.length > 0) {
        why = flakyNote(flaky);
        runs.verdicts[at] = { ...verdict, reason: verdict.reason ? `${verdict.reason}; ${why}` : why };
      }
    }
    if (!why && !confirming) return;
    if (this.options.signal.aborted) return;
    const again = await this.runs.full(fileText, label, { alone: alone || this.options.executor.runsCanInterfere, timeoutMs, priority: RunPriority.confirm, scope: runs.scope });
    if (again.verdict.cancelled) return;
    if (why) runs.setAside.push({ run: at, why });
    runs.verdicts.push(again.verdict);
    runs.tests.push(again.tests);
    runs.fixedOnly.push(false);
  }

  /** The flaky-test finder, once the baseline gave per-test results and the original text is known. */
  private async flakyTests(): Promise<FlakyTests | undefined> {
    const { plan } = await this.options.reference;
    if (!plan || this.options.originalText === undefined) return undefined;
    this.flaky ??= new FlakyTests({ executor: this.options.executor, plan, originalText: this.options.originalText, slot: this.options.slot });
    return this.flaky;
  }

  /**
   * The evidence of candidate `index`'s failing-tests run when it passed and no verdict followed (a stop, such as the
   * total timeout, ended its full run); undefined otherwise.
   */
  passedFailingTestsOnly(index: number): TestEvidence | undefined {
    return this.survivors.get(index);
  }

  /**
   * One run of the whole command for a fix verified on its reaching tests (the top-ranked one, before it is shown as
   * verified on everything); alone where runs can reach each other.
   */
  fullSuiteRun(fileText: string, label: string): Promise<FullRun> {
    return this.runs.full(fileText, label, { alone: this.options.executor.runsCanInterfere, priority: RunPriority.full, wide: this.options.wide });
  }

  /** Tests found flaky on the unmodified code while judging this request's candidates. */
  flakyTestsFound(): readonly string[] {
    return this.flaky?.found ?? [];
  }

  /**
   * A variant of a verified fix: caught when it fails the baseline's failing tests or, past them, one full run;
   * `timedOut` when the run that would decide it ran past its limit (no verdict: the caller may give it longer).
   * Undefined when a cancel ended it. A number limits both stages alike; else each stage has its own. With `of` (the
   * fix it is a variant of, and its own replacement), a fix verified on its reaching tests has its variants' full runs
   * narrowed to them as well.
   */
  async tryVariant(label: string, fileText: string, limit: number | { readonly failingTestsMs: number; readonly fullMs: number }, of?: VariantOf): Promise<'caught' | 'survived' | 'timedOut' | undefined> {
    const timeoutMs = typeof limit === 'number' ? limit : limit.fullMs;
    const first = await this.stageOne.run(fileText, `${label}f`, typeof limit === 'number' ? limit : limit.failingTestsMs);
    if (first?.verdict.cancelled) return undefined;
    if (first?.verdict.status === 'timeout') return 'timedOut';
    if (first && first.verdict.status !== 'pass') return 'caught';
    const full = await this.runs.full(fileText, label, { timeoutMs, scope: of ? await this.variantScope(label, of) : undefined });
    if (full.verdict.cancelled) return undefined;
    if (full.verdict.status === 'timeout') return 'timedOut';
    return full.verdict.status === 'pass' ? 'survived' : 'caught';
  }

  /**
   * The reaching tests a variant of fix `of.fix` runs: it changes only lines the fix changed, so the tests that cannot
   * reach the fix cannot reach it either; its own edit is held to the same conditions.
   */
  private async variantScope(label: string, of: VariantOf): Promise<ReachScope | undefined> {
    const kept = this.kept.scopes.get(of.fix);
    return kept ? candidateScope(await this.options.reference, this.options, `strength check of #${of.fix + 1}: variant ${label}`, kept.selection, of.replacement) : undefined;
  }

  /**
   * Whether confirmations repeat only the fixed tests. The full run already showed that nothing else broke; what a
   * repeat guards against is a fix that passes its tests by chance, and that shows on the tests it turned green.
   */
  private get cheapConfirmation(): boolean {
    return this.options.cheapConfirmation !== false;
  }

  /**
   * A confirmation run: after a candidate passed its failing tests, those tests again (the fixed ones: all of them
   * passed, or it would not be here) where the runner can select them; the whole command otherwise.
   */
  private async confirm(fileText: string, label: string, alone: boolean, first: { tests: TestEvidence } | undefined, priority: number, scope?: ReachScope): Promise<{ verdict: Verdict; tests?: TestEvidence; fixedOnly?: boolean }> {
    if (first && this.cheapConfirmation) {
      const again = await this.stageOne.failingTests(fileText, label, undefined, { alone, priority });
      if (again) return { ...again, fixedOnly: true };
    }
    return this.runs.full(fileText, label, { alone, priority, scope });
  }
}
