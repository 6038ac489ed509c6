// Every context key (package.json `when` clauses) and Memento key in one place, with typed access (rust-analyzer's PersistentState).
import type * as vscode from 'vscode';
import type { Protections } from '../core/contract/protections';

/** Context keys; package.json's `when` clauses use exactly these (test/unit/hostState.test.ts compares both). */
export enum ContextKey {
  /** A request is running (Cancel shows). */
  Running = 'verifiedFix.running',
  /** Verified candidates of the browsable run (Apply, Next, Show Candidates). */
  CandidateCount = 'verifiedFix.candidateCount',
  /** Variants the tests also accept, of the candidate whose diff was opened last. */
  VariantCount = 'verifiedFix.variantCount',
  /** The session has tasks (the panel's Export and Reset). */
  HasTasks = 'verifiedFix.hasTasks',
}

interface ContextValues {
  [ContextKey.Running]: boolean;
  [ContextKey.CandidateCount]: number;
  [ContextKey.VariantCount]: number;
  [ContextKey.HasTasks]: boolean;
}

/** Memento keys: renaming one forgets what users have stored under it. */
export enum MementoKey {
  /** Workspace: the session's tasks (the version suffix changes with an incompatible schema). */
  Session = 'verifiedFix.session.v1',
  /** Machine: whether the weaker-sandbox warning was shown here already. */
  WeakerSandboxWarned = 'verifiedFix.weakerSandboxWarned',
  /** Machine: the last request's protections, for the panel before any request of this window. */
  LastProtections = 'verifiedFix.lastProtections',
}

/** Sets context keys; VS Code's commands are passed in so that this module needs `vscode` only as a type (and unit tests can load it). */
export class UiContext {
  constructor(private readonly commands: Pick<typeof vscode.commands, 'executeCommand'>) {}

  set<K extends ContextKey>(key: K, value: ContextValues[K]): void {
    void this.commands.executeCommand('setContext', key, value);
  }
}

/** What is kept per machine, across workspaces (`globalState`). */
export class MachineState {
  constructor(private readonly memento: vscode.Memento) {}

  get weakerSandboxWarned(): boolean {
    return Boolean(this.memento.get<boolean>(MementoKey.WeakerSandboxWarned));
  }

  setWeakerSandboxWarned(): Thenable<void> {
    return this.memento.update(MementoKey.WeakerSandboxWarned, true);
  }

  /** As stored, possibly by another version: callers check its shape. */
  get lastProtections(): Protections | undefined {
    return this.memento.get<Protections>(MementoKey.LastProtections);
  }

  setLastProtections(protections: Protections): Thenable<void> {
    return this.memento.update(MementoKey.LastProtections, protections);
  }
}

/** What is kept per workspace (`workspaceState`). */
export class WorkspaceState {
  constructor(private readonly memento: vscode.Memento) {}

  /** As stored, unchecked: the session schema validates it. */
  get session(): unknown {
    return this.memento.get<unknown>(MementoKey.Session);
  }

  setSession(tasks: unknown): Thenable<void> {
    return this.memento.update(MementoKey.Session, tasks);
  }
}
