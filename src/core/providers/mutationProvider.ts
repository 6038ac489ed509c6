// The `mutation` provider: offline single-edit repair candidates (`<`→`<=`, `i`→`i + 1`, swapped arguments, …).
import { UserError } from '../base/errors';
import { failureLines } from '../mutation/failureLines';
import { generateMutants, prepareSelection } from '../mutation/generator';
import type { MutationStats } from '../mutation/generator';
import type { CandidateProvider, ProviderRequest, ProviderSample } from '../contract/provider';
import { untilAborted } from './retryPolicy';

/**
 * Mutants checked (re-parsed) per request at least, whatever `samples` is: every edit of a selection of a
 * function or two (a 40-line selection has about 600), so the reported counts are exact there, while a selection
 * of thousands of lines does not spend seconds checking mutants that will never be tried.
 */
const CHECKED_AT_LEAST = 1000;

/** How many of the ranked lines the log names. */
const TOP_LINES_LOGGED = 5;

/** Options for `createMutationProvider`; all optional. */
export interface MutationProviderOptions {
  /** Called once per request with the counts, after generation and before the first candidate is yielded. */
  readonly onStats?: (stats: MutationStats) => void;
}

/** A `CandidateProvider` that also tells what its last request generated. */
export interface MutationProvider extends CandidateProvider {
  /** Counts of the most recent request (candidates, dropped as unparsable, duplicates), or undefined before one. */
  lastStats(): MutationStats | undefined;
}

/**
 * Creates the `mutation` provider. Where the selection spans lines it waits for the baseline run and the fault
 * localisation first: the lines the failing tests point at decide which mutants come first, and a deterministic order
 * is worth more than starting a test run earlier.
 */
export function createMutationProvider(options: MutationProviderOptions = {}): MutationProvider {
  let last: MutationStats | undefined;
  return {
    name: 'mutation',
    lastStats: () => last,
    async *generate(request: ProviderRequest): AsyncGenerator<ProviderSample> {
      const selection = { languageId: request.languageId, fileText: request.fileText, start: request.start, end: request.end, limit: Math.max(request.samples, CHECKED_AT_LEAST) };
      // Within one line the hints cannot reorder anything (every mutant is on the same line): the mutants go out
      // without waiting for the baseline, and the first can start its full run beside it.
      const oneLine = !request.fileText.slice(request.start, request.end).includes('\n');
      // Else the mutants wait for the baseline's verdict anyway, and the parse, which holds the event loop (a quarter
      // of a second on a 3,000-line file), waits for its process to start: begun first, it holds that start back.
      // Within one line it goes first: the first mutant's full run beside the baseline starts that much sooner, and
      // the parse runs twice as long beside a starting baseline (measured on lunr's 3,400-line file).
      if (!oneLine && request.testsStarted) await untilAborted(request.testsStarted, request.signal);
      if (request.signal.aborted) return;
      // The parse and the syntax checks need no hints (the baseline's failures): they start before those are in.
      const prepared = prepareSelection(selection);
      let handedOver = false;
      try {
        const baseline = oneLine ? undefined : await untilAborted(request.baseline, request.signal);
        if (request.signal.aborted) return;
        const failing = baseline !== undefined && baseline.status !== 'pass';
        // Ranked by coverage and stack frames where the engine can localise; else the lines the failure output names.
        const ranking = failing && request.localise ? await untilAborted(request.localise(), request.signal) : undefined;
        if (request.signal.aborted) return;
        const hintLines = ranking?.lines ?? (failing ? failureLines(baseline.output, request.relativePath) : []);
        handedOver = true;
        const { mutants, stats } = await generateMutants({ ...selection, hintLines }, prepared);
        last = stats;
        options.onStats?.(stats);
        if (!stats.supported) {
          throw new UserError(
            `The mutation provider has no parser for '${request.languageId}'; it supports JavaScript, TypeScript, Python, Java and Go.`,
          );
        }
        const hinted = ranking
          ? `; ${ranking.evidence}; top lines ${ranking.lines.slice(0, TOP_LINES_LOGGED).join(', ')}`
          : hintLines.length > 0
            ? `; failure output points at line${hintLines.length > 1 ? 's' : ''} ${hintLines.join(', ')}`
            : '';
        request.logger.info(
          `mutation: ${stats.candidates} candidates from ${stats.generated} edits ` +
            `(${stats.unparsable} dropped as unparsable, ${stats.duplicates} duplicates` +
            `${stats.unchecked > 0 ? `, ${stats.unchecked} after the first ${stats.candidates} not checked` : ''}) ` +
            `in ${stats.durationMs.toFixed(0)} ms${hinted}; ` +
            `trying the first ${Math.min(request.samples, stats.candidates)}`,
        );
        for (const mutant of mutants.slice(0, request.samples)) {
          if (request.signal.aborted) return;
          yield { kind: 'candidate', text: mutant.text, label: mutant.label };
        }
      } finally {
        // A request cancelled before the ranking never hands the parse over: its tree is freed here.
        if (!handedOver) void prepared.then((unused) => unused?.release(), () => undefined);
      }
    },
  };
}
