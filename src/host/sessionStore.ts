// The session's tasks, kept in workspace state so the statistics survive a reload; a corrupt state is reset, never fatal.
import * as vscode from 'vscode';
import { loadSession } from './model/sessionSchema';
import type { StoredTask } from './model/sessionSchema';

export type { StoredCandidate, StoredTask } from './model/sessionSchema';

const STATE_KEY = 'verifiedFix.session.v1';
/** Oldest tasks are dropped beyond this, so workspace state stays small. */
const MAX_TASKS = 500;

/** The tasks of this workspace's session; fires onDidChange after every add or reset. */
export class SessionStore implements vscode.Disposable {
  private tasks: StoredTask[];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Why the saved state was discarded at load, if it was. */
  readonly loadProblem: string | undefined;

  constructor(private readonly state: vscode.Memento) {
    const loaded = loadSession(state.get<unknown>(STATE_KEY));
    this.tasks = [...loaded.tasks];
    this.loadProblem = loaded.problem;
    if (loaded.problem) void state.update(STATE_KEY, undefined);
  }

  /** Every task, oldest first. */
  all(): readonly StoredTask[] {
    return this.tasks;
  }

  get(id: string): StoredTask | undefined {
    return this.tasks.find((t) => t.id === id);
  }

  async add(task: StoredTask): Promise<void> {
    this.tasks = [...this.tasks, task].slice(-MAX_TASKS);
    this.changed.fire();
    await this.state.update(STATE_KEY, this.tasks);
  }

  async reset(): Promise<void> {
    this.tasks = [];
    this.changed.fire();
    await this.state.update(STATE_KEY, undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
