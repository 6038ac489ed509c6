// Runs the mutation generator's parse on a worker thread (parseWorker.ts) where its bundle is present, so that the
// parse (a tenth to a third of a second, more on long files) does not hold the engine's event loop: it can start as
// soon as the selection is known and run while the sandbox probe, the listing and the baseline's start go on. Where
// the worker is absent or fails, the same functions run on this thread.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { generateMutants, prepareSelection } from './generator';
import type { MutationInput, MutationStats, SelectionInput } from './generator';

/** A mutant as the provider hands it on. */
export interface ParsedMutant {
  readonly text: string;
  readonly label: string;
}

export interface ParsedMutants {
  readonly mutants: readonly ParsedMutant[];
  readonly stats: MutationStats;
}

/** What the engine's thread asks the worker; answers come for `generate` only. */
export type ParseAsk =
  | { readonly kind: 'prepare'; readonly id: number; readonly input: SelectionInput }
  | { readonly kind: 'generate'; readonly id: number; readonly input: MutationInput }
  | { readonly kind: 'release'; readonly id: number };

export type ParseAnswer = ({ readonly id: number } & ParsedMutants) | { readonly id: number; readonly error: string };

/** A selection's parse, started: its mutants once the hints are known (once), or its release when never asked. */
export interface SelectionParse {
  /** Whether it runs on the worker: the engine's event loop stays free meanwhile. */
  readonly offThread: boolean;
  /** The mutants ranked by `hintLines`; takes the parse over. */
  mutants(hintLines: readonly number[]): Promise<ParsedMutants>;
  release(): void;
}

/** The worker's bundle beside this one (dist/parseWorker.js beside dist/cli.js and dist/extension.js). */
const BUNDLED_WORKER = join(__dirname, 'parseWorker.js');

/** One worker per bundle file and process, made on first use; `undefined` once it failed (the rest run here). */
const workers = new Map<string, ParseWorker | undefined>();

class ParseWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (answer: ParseAnswer) => void; reject: (error: Error) => void }>();
  private lastId = 0;
  /** Why it stopped (it exited or threw): every later ask fails at once, so its caller runs the parse here. */
  private failure?: Error;

  constructor(file: string, private readonly onFailure: () => void) {
    this.worker = new Worker(file);
    // Idle, it must not keep the process alive; while it owes an answer, it does (see ask).
    this.worker.unref();
    this.worker.on('message', (answer: ParseAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.worker.unref();
      waiting?.resolve(answer);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      this.onFailure();
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the parse worker exited (${code})`)));
  }

  nextId(): number {
    return ++this.lastId;
  }

  post(ask: ParseAsk): void {
    if (!this.failure) this.worker.postMessage(ask);
  }

  ask(ask: ParseAsk & { kind: 'generate' }): Promise<ParseAnswer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(ask.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(ask);
    });
  }
}

/** The worker of `file`; undefined where the file is not there (looked for again next time) or the worker failed. */
function workerFor(file: string): ParseWorker | undefined {
  if (!workers.has(file)) {
    if (!existsSync(file)) return undefined;
    try {
      workers.set(file, new ParseWorker(file, () => workers.set(file, undefined)));
    } catch {
      workers.set(file, undefined);
    }
  }
  return workers.get(file);
}

/**
 * Starts parsing `input` on the worker (`workerFile`, for tests; by default the bundle beside this one); undefined
 * where there is none, having started nothing.
 */
export function parseOffThread(input: SelectionInput, workerFile = BUNDLED_WORKER): SelectionParse | undefined {
  const worker = workerFor(workerFile);
  if (!worker) return undefined;
  const id = worker.nextId();
  worker.post({ kind: 'prepare', id, input });
  return parseHandle(
    true,
    async (hintLines) => {
      const answer = await worker.ask({ kind: 'generate', id, input: { ...input, hintLines } }).catch(() => undefined);
      // A worker that died or could not parse: the same generation here, where its error, if any, is the one thrown.
      if (!answer || 'error' in answer) return generateMutants({ ...input, hintLines });
      return answer;
    },
    () => worker.post({ kind: 'release', id }),
  );
}

/** Starts parsing `input`: on the worker where there is one, else on this thread. */
export function startParse(input: SelectionInput, workerFile = BUNDLED_WORKER): SelectionParse {
  return parseOffThread(input, workerFile) ?? onThisThread(input);
}

function onThisThread(input: SelectionInput): SelectionParse {
  const prepared = prepareSelection(input);
  // Its failure reaches the caller through mutants(); one never asked for is released unread.
  prepared.catch(() => undefined);
  return parseHandle(
    false,
    (hintLines) => generateMutants({ ...input, hintLines }, prepared),
    () => void prepared.then((unused) => unused?.release(), () => undefined),
  );
}

/** A started parse's handle, on either thread: `mutants` takes the parse over; `release` frees it once, unless taken. */
function parseHandle(offThread: boolean, mutants: SelectionParse['mutants'], free: () => void): SelectionParse {
  let taken = false;
  return {
    offThread,
    mutants(hintLines) {
      taken = true;
      return mutants(hintLines);
    },
    release() {
      if (taken) return;
      taken = true;
      free();
    },
  };
}
