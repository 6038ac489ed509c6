// The `mutation` provider: offline single-edit repair candidates (`<`→`<=`, `i`→`i + 1`, swapped arguments, …).
import { UserError } from '../base/errors';
import { failureLines } from '../mutation/failureLines';
import type { MutationStats, SelectionInput } from '../mutation/generator';
import { parseOffThread, startParse } from '../mutation/parseClient';
import type { SelectionParse } from '../mutation/parseClient';
import type { CandidateProvider, EarlySelection, EarlyWork, ProviderRequest, ProviderSample } from '../contract/provider';
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
  /** The parse worker's bundle (tests point it at dist/parseWorker.js); by default the one beside the running bundle. */
  readonly parseWorker?: string;
}

/** A `CandidateProvider` that also tells what its last request generated. */
export interface MutationProvider extends CandidateProvider {
  /** Counts of the most recent request (candidates, dropped as unparsable, duplicates), or undefined before one. */
  lastStats(): MutationStats | undefined;
}

/** What the parse and the syntax checks read: the same for `prepare` and `generate` on one selection. */
function selectionOf(request: EarlySelection): SelectionInput {
  return { languageId: request.languageId, fileText: request.fileText, start: request.start, end: request.end, limit: Math.max(request.samples, CHECKED_AT_LEAST) };
}

const sameSelection = (a: SelectionInput, b: SelectionInput) =>
  a.languageId === b.languageId && a.start === b.start && a.end === b.end && a.limit === b.limit && a.fileText === b.fileText;

/** A parse `prepare` started: `generate` takes it once, for the same selection; else the request's end frees it. */
interface EarlyParse {
  readonly selection: SelectionInput;
  readonly parse: SelectionParse;
  taken: boolean;
}

/**
 * Creates the `mutation` provider. Where the selection spans lines it waits for the baseline run and the fault
 * localisation first: the lines the failing tests point at decide which mutants come first, and a deterministic order
 * is worth more than starting a test run earlier.
 */
export function createMutationProvider(options: MutationProviderOptions = {}): MutationProvider {
  let last: MutationStats | undefined;
  let early: EarlyParse | undefined;
  return {
    name: 'mutation',
    lastStats: () => last,
    /**
     * Starts the parse and the syntax checks on the parse worker while the engine probes the sandbox and lists the
     * workspace: steps that mostly wait on short processes, with the CPU idle. Without the worker it starts nothing:
     * on this thread the parse would hold those steps back.
     */
    prepare(request: EarlySelection): EarlyWork | undefined {
      const selection = selectionOf(request);
      const parse = parseOffThread(selection, options.parseWorker);
      if (!parse) return undefined;
      const earlyParse: EarlyParse = { selection, parse, taken: false };
      early = earlyParse;
      return {
        release: () => {
          if (early === earlyParse) early = undefined;
          if (!earlyParse.taken) parse.release();
          earlyParse.taken = true;
        },
      };
    },
    async *generate(request: ProviderRequest): AsyncGenerator<ProviderSample> {
      const selection = selectionOf(request);
      const earlyParse = early && !early.taken && sameSelection(early.selection, selection) ? early : undefined;
      if (earlyParse) earlyParse.taken = true;
      // Within one line the hints cannot reorder anything (every mutant is on the same line): the mutants go out
      // without waiting for the baseline, and the first can start its full run beside it.
      const oneLine = !request.fileText.slice(request.start, request.end).includes('\n');
      let parse = earlyParse?.parse ?? parseOffThread(selection, options.parseWorker);
      if (!parse) {
        // On this thread the parse holds the event loop (a quarter of a second on a 3,000-line file). Beyond one line
        // the mutants wait for the baseline's verdict anyway, so the parse waits for its process to start: begun
        // first, it holds that start back. Within one line it goes first: the first mutant's full run beside the
        // baseline starts that much sooner, and the parse runs twice as long beside a starting baseline (measured on
        // lunr's 3,400-line file).
        if (!oneLine && request.testsStarted) await untilAborted(request.testsStarted, request.signal);
        if (request.signal.aborted) return;
        // The parse and the syntax checks need no hints (the baseline's failures): they start before those are in.
        parse = startParse(selection, options.parseWorker);
      }
      let handedOver = false;
      try {
        if (request.signal.aborted) return;
        const baseline = oneLine ? undefined : await untilAborted(request.baseline, request.signal);
        if (request.signal.aborted) return;
        const failing = baseline !== undefined && baseline.status !== 'pass';
        // Ranked by coverage and stack frames where the engine can localise; else the lines the failure output names.
        const ranking = failing && request.localise ? await untilAborted(request.localise(), request.signal) : undefined;
        if (request.signal.aborted) return;
        const hintLines = ranking?.lines ?? (failing ? failureLines(baseline.output, request.relativePath) : []);
        handedOver = true;
        const { mutants, stats } = await parse.mutants(hintLines);
        last = stats;
        options.onStats?.(stats);
        if (!stats.supported) {
          throw new UserError(
            `The mutation provider has no parser for '${request.languageId}'; it supports JavaScript, TypeScript, Python, Java and Go.`,
          );
        }
        const where = !parse.offThread ? '' : earlyParse ? ", parsed on a worker thread from the request's start" : ', parsed on a worker thread';
        const hinted = ranking
          ? `; ${ranking.evidence}; top lines ${ranking.lines.slice(0, TOP_LINES_LOGGED).join(', ')}`
          : hintLines.length > 0
            ? `; failure output points at line${hintLines.length > 1 ? 's' : ''} ${hintLines.join(', ')}`
            : '';
        request.logger.info(
          `mutation: ${stats.candidates} candidates from ${stats.generated} edits ` +
            `(${stats.unparsable} dropped as unparsable, ${stats.duplicates} duplicates` +
            `${stats.unchecked > 0 ? `, ${stats.unchecked} after the first ${stats.candidates} not checked` : ''}) ` +
            `in ${stats.durationMs.toFixed(0)} ms${where}${hinted}; ` +
            `trying the first ${Math.min(request.samples, stats.candidates)}`,
        );
        for (const mutant of mutants.slice(0, request.samples)) {
          if (request.signal.aborted) return;
          yield { kind: 'candidate', text: mutant.text, label: mutant.label };
        }
      } finally {
        // A request cancelled before the ranking never hands the parse over: its tree is freed here.
        if (!handedOver) parse.release();
      }
    },
  };
}
