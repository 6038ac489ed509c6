// A run: one "Suggest Verified Fix" request's lifetime. It owns the cancel signal and the candidate documents.
import type * as vscode from 'vscode';
import type { CandidateDocuments } from './candidateDocuments';

/** How long deactivate waits for an aborted engine to kill its processes and remove its copies. */
const SHUTDOWN_WAIT_MS = 5000;

/**
 * Aborting the signal makes the engine kill every process tree and remove every copy; the engine's promise
 * settles once that is done, so dispose() aborts and {@link Run.settled} waits for it.
 */
export class Run implements vscode.Disposable {
  private readonly controller = new AbortController();
  private work: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private pending = 0;

  constructor(
    readonly id: string,
    private readonly documents: CandidateDocuments,
    private readonly onDispose: (run: Run) => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The engine is still at work on this run (its tracked promise has not settled). */
  get working(): boolean {
    return this.pending > 0;
  }

  /** Ends the engine's work (cancel, or `reason`: the engine reports it as the stop's message); the documents stay until dispose. */
  cancel(reason?: string): void {
    this.controller.abort(reason);
  }

  /** Remembers the engine's promise so shutdown can wait for its cleanup. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending++;
    this.work = work.catch(() => undefined).finally(() => this.pending--);
    return work;
  }

  /** Settles when the tracked work has, however long that takes. */
  idle(): Promise<void> {
    return this.work.then(() => undefined);
  }

  /** Settles when the tracked work has (or `SHUTDOWN_WAIT_MS` has passed). */
  settled(): Promise<void> {
    return Promise.race([this.work.then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS))]);
  }

  /** Registers a read-only document owned by this run. */
  addDocument(name: string, relativePath: string, text: string): vscode.Uri {
    return this.documents.add(this.id, name, relativePath, text);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controller.abort();
    this.documents.clear(this.id);
    this.onDispose(this);
  }
}

/** Every live run; disposing it (on deactivate) aborts them all. */
export class Runs implements vscode.Disposable {
  private readonly live = new Set<Run>();
  private counter = 0;

  constructor(private readonly documents: CandidateDocuments) {}

  /** A new run with an id unique in this window. */
  create(): Run {
    const run = new Run(`r${Date.now().toString(36)}${(++this.counter).toString(36)}`, this.documents, (r) => this.live.delete(r));
    this.live.add(run);
    return run;
  }

  /** Aborts every run and waits (bounded) for their processes and copies to be gone. */
  async shutdown(): Promise<void> {
    const runs = [...this.live];
    for (const run of runs) run.dispose();
    await Promise.all(runs.map((r) => r.settled()));
  }

  dispose(): void {
    for (const run of [...this.live]) run.dispose();
  }
}
