// Looking at verified candidates: the QuickPick, the diff view against the real document, Next, and Apply.
import * as vscode from 'vscode';
import { applyReplacement } from '../core/base/textRange';
import { CANDIDATE_SCHEME, CandidateDocuments } from './candidateDocuments';
import { documentChanged } from './documentChanged';
import { listTitle, verifiedLabel } from './model/candidateLabels';
import type { Log } from './log';
import type { Run } from './run';
import type { StoredCandidate } from './model/sessionSchema';
import { lineLabel } from './model/labels';
import type { SelectionTarget } from './selectionTarget';
import { ContextKey } from './state';
import type { UiContext } from './state';
import type { BrowsableSummary } from './candidateStatus';

/** A candidate that passed every confirmation run: the same record the session keeps, so a reopened task browses alike. */
export type BrowsableCandidate = StoredCandidate;

/** One request's verified candidates and what they apply to. */
export interface BrowsableTask {
  readonly run: Run;
  readonly documentUri: vscode.Uri;
  readonly relativePath: string;
  /** The text the request started from; Apply refuses when the document no longer equals it. */
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** Best first. */
  readonly candidates: readonly BrowsableCandidate[];
  /** The tests pass on the unmodified code too. */
  readonly baselinePassed: boolean;
}

/** A request's side of a task: the run, the document and the range its candidates replace. */
export interface BrowsableRequest {
  readonly run: Run;
  readonly documentUri: vscode.Uri;
  readonly relativePath: string;
  readonly originalText: string;
  readonly target: Pick<SelectionTarget, 'start' | 'end' | 'startLine' | 'endLine'>;
}

/** The task the browser shows for `request`'s `candidates`. */
export function taskOf(request: BrowsableRequest, candidates: readonly BrowsableCandidate[], baselinePassed: boolean): BrowsableTask {
  const { run, documentUri, relativePath, originalText, target } = request;
  return { run, documentUri, relativePath, originalText, start: target.start, end: target.end, startLine: target.startLine, endLine: target.endLine, candidates, baselinePassed };
}

/** Where Apply's "Run Again" goes: the same lines of the same document. */
export type Rerun = (uri: vscode.Uri, startLine: number, endLine: number) => void;

/** "1 line changed": a changed line counts once, not as one removed and one added. */
function sizeLabel(c: BrowsableCandidate): string {
  const lines = Math.max(1, Math.ceil(c.changeSize / 2));
  return `${lines} line${lines === 1 ? '' : 's'} changed`;
}

/** A mutant's label ("`<` → `<=` on line 12") without the Markdown a QuickPick would show literally. */
function plainText(label: string): string {
  return label.replace(/`/g, '');
}

/**
 * Disposes a run whose list is no longer shown. A request still running keeps its run until its engine settles:
 * replacing its early list (with a reopened task) must not cancel it.
 */
function release(run: Run): void {
  if (run.working) void run.idle().then(() => run.dispose());
  else run.dispose();
}

const applyButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('check'), tooltip: 'Apply this candidate' };
const variantsButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: 'Show the variants of this fix that the tests also accept' };

/**
 * Holds the task being looked at; Apply and Next act on it (or on the candidate whose diff is active). It owns that
 * task's run: there is at most one browsable run, and presenting another disposes it.
 */
export class CandidateBrowser implements vscode.Disposable {
  private task: BrowsableTask | undefined;
  private uris: vscode.Uri[] = [];
  private position = 0;
  private picker: vscode.QuickPick<vscode.QuickPickItem & { position: number }> | undefined;

  constructor(
    private readonly log: Log,
    private readonly rerun: Rerun,
    private readonly context: UiContext,
    /** Told what is browsable after every present and Apply (the status bar item). */
    private readonly onTask: (summary: BrowsableSummary | undefined) => void = () => undefined,
  ) {}

  /** The candidate document currently (or last) shown, for the integration tests. */
  get currentUri(): vscode.Uri | undefined {
    return this.uris[this.position];
  }

  /**
   * The same request's list again with what the strength check found (new order, new labels): the open QuickPick,
   * if any, is refreshed in place, never opened anew.
   */
  update(task: BrowsableTask): void {
    if (this.task?.run !== task.run) return;
    this.present(task, false);
    if (this.picker) this.fill(this.picker, task);
  }

  /**
   * Makes `task` the one Apply and Next act on, registering a document per candidate; `pick` opens the QuickPick.
   * The previous task's run is disposed (its candidate documents go), unless it is the same run.
   */
  present(task: BrowsableTask, pick: boolean): void {
    const previous = this.task?.run;
    if (previous && previous !== task.run) release(previous);
    this.task = task;
    this.position = 0;
    this.uris = task.candidates.map((c) =>
      task.run.addDocument(`candidate-${c.index + 1}`, task.relativePath, applyReplacement(task.originalText, task.start, task.end, c.replacement)),
    );
    this.context.set(ContextKey.CandidateCount, task.candidates.length);
    this.onTask({ count: task.candidates.length, where: `${task.relativePath}:${lineLabel(task.startLine, task.endLine)}` });
    if (pick && task.candidates.length > 0) this.showPicker();
  }

  /** The QuickPick of verified candidates, best first; accepting opens the diff, the ✓ button applies. */
  showPicker(): void {
    const task = this.task;
    if (!task || task.candidates.length === 0) {
      void this.log.info('There are no verified candidates to show: run "Suggest Verified Fix" first.');
      return;
    }
    this.picker?.dispose();
    const picker = vscode.window.createQuickPick<vscode.QuickPickItem & { position: number }>();
    this.picker = picker;
    this.fill(picker, task);
    picker.onDidAccept(() => {
      const item = picker.selectedItems[0];
      picker.hide();
      if (item) void this.show(item.position);
    });
    picker.onDidTriggerItemButton(({ item, button }) => {
      picker.hide();
      this.position = item.position;
      if (button === variantsButton) void this.showVariant(item.position);
      else void this.apply();
    });
    picker.onDidHide(() => {
      picker.dispose();
      if (this.picker === picker) this.picker = undefined;
    });
    picker.show();
  }

  /** Title, placeholder and rows for `task`: plain text, as VS Code's own lists (a QuickPick renders no Markdown). */
  private fill(picker: vscode.QuickPick<vscode.QuickPickItem & { position: number }>, task: BrowsableTask): void {
    const where = `${task.relativePath}:${lineLabel(task.startLine, task.endLine)}`;
    // Several different fixes that all pass: the tests did not choose, so the reader must (helped by the behaviour check).
    picker.title = listTitle(task.candidates, where);
    picker.placeholder = task.baselinePassed
      ? 'Careful: the tests pass without a fix too. Enter opens the diff; ✓ applies.'
      : 'Enter opens the diff against your file; ✓ applies the candidate.';
    picker.items = task.candidates.map((c, position) => ({
      position,
      label: `$(pass) Candidate ${c.index + 1}${c.label ? `: ${plainText(c.label)}` : ''}`,
      description: sizeLabel(c),
      detail: verifiedLabel(c),
      buttons: c.strength?.survivors?.length ? [variantsButton, applyButton] : [applyButton],
    }));
  }

  /**
   * A variant the tests also accept, as a diff against the verified fix (a pick first when there are several, unless
   * `which` names one, as scripts do): what else the tests would let through, for the reader to judge.
   */
  async showVariant(position = this.position, which?: number): Promise<vscode.Uri | undefined> {
    const task = this.task;
    const c = task?.candidates[position];
    const survivors = c?.strength?.survivors ?? [];
    if (!task || !c || survivors.length === 0) {
      void this.log.info('The tests accept no variant of this candidate that the strength check tried (or it has not run).');
      return undefined;
    }
    const chosen = which !== undefined || survivors.length === 1
      ? survivors[Math.min(which ?? 0, survivors.length - 1)]
      : (await vscode.window.showQuickPick(survivors.map((v) => ({ label: v.label.replace(/`/g, ''), variant: v })), { title: `Variants of candidate ${c.index + 1} that also pass the tests` }))?.variant;
    if (!chosen) return undefined;
    const variant = task.run.addDocument(`variant-${c.index + 1}-${survivors.indexOf(chosen) + 1}`, task.relativePath, applyReplacement(task.originalText, task.start, task.end, chosen.replacement));
    const title = `candidate ${c.index + 1} ↔ a variant the tests also accept (${chosen.label.replace(/`/g, '')})`;
    await vscode.commands.executeCommand('vscode.diff', this.uris[position], variant, title, { preview: true });
    return variant;
  }

  /** Opens the diff of the candidate at `position` (default: the current one); returns its document URI. */
  async show(position = this.position): Promise<vscode.Uri | undefined> {
    const task = this.task;
    if (!task || task.candidates.length === 0) return undefined;
    this.position = ((position % task.candidates.length) + task.candidates.length) % task.candidates.length;
    const c = task.candidates[this.position];
    const uri = this.uris[this.position];
    // A tab title is read at a glance: the file and which candidate; the evidence is the changed lines' hover (evidenceAt).
    const title = `${task.relativePath.split('/').pop()} ↔ candidate ${c.index + 1} (${this.position + 1}/${task.candidates.length})${c.behaviour && c.behaviour.groups > 1 ? ` · ${c.behaviour.note}` : ''}`;
    this.context.set(ContextKey.VariantCount, c.strength?.survivors?.length ?? 0);
    await vscode.commands.executeCommand('vscode.diff', task.documentUri, uri, title, { preview: true });
    return uri;
  }

  /**
   * What a candidate's runs proved ("fixes 1 failing test · passed 2/2 runs · tests pin it"), for a hover on the lines it
   * changes in its diff; undefined elsewhere or for a document of an earlier request.
   */
  evidenceAt(uri: vscode.Uri, line: number): string | undefined {
    const task = this.task;
    const position = this.uris.findIndex((u) => u.toString() === uri.toString());
    if (!task || position < 0) return undefined;
    const c = task.candidates[position];
    const last = task.startLine - 1 + Math.max(0, c.replacement.replace(/\n$/, '').split('\n').length - 1);
    if (line < task.startLine - 1 || line > last) return undefined;
    return `Candidate ${c.index + 1} (${position + 1} of ${task.candidates.length}): ${verifiedLabel(c)}`;
  }

  /** Shows the next verified candidate, wrapping around. */
  async next(): Promise<vscode.Uri | undefined> {
    return this.show(this.position + 1);
  }

  /**
   * Applies a candidate (the one `target` names when it is a candidate URI, as the editor title passes it; else the
   * current one) as one undoable edit of the original range. Refuses when the document changed since the request.
   */
  async apply(target?: unknown): Promise<boolean> {
    const task = this.task;
    if (!task || task.candidates.length === 0) {
      void this.log.info('There is no verified candidate to apply: run "Suggest Verified Fix" first.');
      return false;
    }
    if (target instanceof vscode.Uri && target.scheme === CANDIDATE_SCHEME) {
      const found = this.uris.findIndex((u) => u.toString() === target.toString());
      if (found < 0 || CandidateDocuments.parse(target)?.runId !== task.run.id) {
        void this.log.warn('That candidate belongs to an earlier request; open the current candidates with "Show Passing Candidates".');
        return false;
      }
      this.position = found;
    }
    const c = task.candidates[this.position];
    const document = await vscode.workspace.openTextDocument(task.documentUri);
    if (documentChanged(document, task.originalText)) {
      void this.log
        .warn(`${task.relativePath} changed since the request started, so candidate ${c.index + 1} may no longer fit. Nothing was applied.`, 'Run Again')
        .then((choice) => choice && this.rerun(task.documentUri, task.startLine, task.endLine));
      return false;
    }
    // The engine tested applyReplacement's result; replacing only the range keeps the edit (and undo) small.
    const after = applyReplacement(task.originalText, task.start, task.end, c.replacement);
    const body = after.slice(task.start, after.length - (task.originalText.length - task.end));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(task.documentUri, new vscode.Range(document.positionAt(task.start), document.positionAt(task.end)), body);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void this.log.warn(`VS Code did not apply candidate ${c.index + 1} to ${task.relativePath} (is the file read-only?).`);
      return false;
    }
    this.log.logger.info(`applied candidate ${c.index + 1} to ${task.relativePath}:${lineLabel(task.startLine, task.endLine)}`);
    await this.closeDiffs(task.run.id);
    // The cursor at the end of the change, nothing selected (as Copilot's Accept and VS Code's refactorings leave it):
    // a selected fix would be replaced by the next keystroke. It goes in the open options too, which VS Code applies
    // after it restores the editor's view state, so a view state restored on the way (the closed diff hands the
    // focus to the file's tab) cannot bring back the request's old selection.
    const end = document.positionAt(task.start + body.length);
    const editor = await vscode.window.showTextDocument(document, { preview: false, selection: new vscode.Range(end, end) });
    editor.selection = new vscode.Selection(end, end);
    editor.revealRange(new vscode.Range(document.positionAt(task.start), end));
    this.onTask(undefined);
    return true;
  }

  /** Closes the diff tabs of `runId`'s candidates, so Ctrl+Z lands in the real editor. */
  private async closeDiffs(runId: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) => {
      const input = tab.input;
      return input instanceof vscode.TabInputTextDiff && CandidateDocuments.parse(input.modified)?.runId === runId;
    });
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }

  dispose(): void {
    this.picker?.dispose();
  }
}
