// The session's tasks, kept in workspace state so the statistics survive a reload; a corrupt state is reset, never fatal.
import * as vscode from 'vscode';
import { loadSession } from './model/sessionSchema';
import type { StoredTask } from './model/sessionSchema';
import type { WorkspaceState } from './state';

export type { StoredCandidate, StoredTask } from './model/sessionSchema';

/** Oldest tasks are dropped beyond this, so workspace state stays small. */
const MAX_TASKS = 500;

/** The tasks of this workspace's session; fires onDidChange after every add or reset. */
export class SessionStore implements vscode.Disposable {
  private tasks: StoredTask[];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Why the saved state was discarded at load, if it was. */
  readonly loadProblem: string | undefined;

  constructor(private readonly state: WorkspaceState) {
    const loaded = loadSession(state.session);
    this.tasks = [...loaded.tasks];
    this.loadProblem = loaded.problem;
    if (loaded.problem) void state.setSession(undefined);
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
    await this.state.setSession(this.tasks);
  }

  async reset(): Promise<void> {
    this.tasks = [];
    this.changed.fire();
    await this.state.setSession(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
