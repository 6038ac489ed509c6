// Checks a request's inputs before anything runs and reads the file and test command; bad input becomes a UserError.
import { lstat, readlink, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../base/errors';
import type { FixRequest } from '../contract/fixRequest';
import { detectTestCommand } from '../testCommand/detect';
import { isTestRelated } from '../security/testFiles';
import { languageIdOf } from '../base/textRange';
import { readUserText } from '../base/userFiles';
import { MAX_TIMER_MS } from '../contract/choices';

export interface PreparedRequest {
  /** The file's path relative to the workspace, normalised with `/` separators (as git lists it). */
  readonly relativePath: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly languageId: string;
  readonly testCommand: string;
  /** Things the user should know that do not stop the request. */
  readonly warnings: readonly string[];
}

/** Above this a selection is not "the buggy code" any more, and every candidate would rewrite a whole file. */
export const MAX_SELECTION_LINES = 2000;


function checkNumbers(request: FixRequest): void {
  const positive = (name: string, value: number) => {
    if (!Number.isFinite(value) || value <= 0) throw new UserError(`${name} must be a positive number, got ${value}`);
    if (value > MAX_TIMER_MS) throw new UserError(`${name} must be at most ${Math.floor(MAX_TIMER_MS / 1000)} s (about 24 days), got ${Math.round(value / 1000)} s`);
  };
  if (!Number.isSafeInteger(request.samples) || request.samples < 1) throw new UserError(`samples must be a whole number ≥ 1, got ${request.samples}`);
  positive('the test timeout', request.testTimeoutMs);
  positive('the total timeout', request.totalTimeoutMs);
  if (!Number.isSafeInteger(request.parallel) || request.parallel < 1) throw new UserError(`parallel must be a whole number ≥ 1, got ${request.parallel}`);
  if (!Number.isSafeInteger(request.confirmRuns) || request.confirmRuns < 1) throw new UserError(`confirm runs must be a whole number ≥ 1, got ${request.confirmRuns}`);
}

/**
 * Refuses a target that a write would carry outside the copy: a symbolic link (or a path through a linked folder),
 * or a file inside a dependency folder that every copy links to the original. The candidate's text is written only
 * into regular files of the workspace.
 */
async function checkTarget(workspace: string, relativePath: string, linkedNames: readonly string[]): Promise<void> {
  const parts = relativePath.split('/');
  const linked = parts.slice(0, -1).find((part) => linkedNames.includes(part));
  if (linked) {
    throw new UserError(`${relativePath} is inside ${linked}, which every test copy links to the original instead of copying; Verified Fix only edits the project's own files`);
  }
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    const stats = await lstat(join(workspace, prefix)).catch(() => undefined);
    if (!stats) return; // not on disk yet (unsaved text): nothing below can be a link
    if (stats.isSymbolicLink()) {
      const target = await readlink(join(workspace, prefix)).catch(() => '?');
      const what = i === parts.length ? 'is a symbolic link' : `is under ${prefix}, a symbolic link`;
      throw new UserError(`${relativePath} ${what} (to ${target}); Verified Fix writes candidates only into regular files inside the workspace: open the file the link points to`);
    }
  }
}

/**
 * Linked folders are named relative to the workspace and must stay inside it: `..` or an absolute path would put a
 * link to a folder outside the workspace in every copy, writable through it by every run (what `--link ..` did).
 */
export function checkLinkedFolders(workspace: string, folders: readonly string[]): void {
  for (const folder of folders) {
    const rel = relative(workspace, resolve(workspace, folder));
    if (isAbsolute(folder) || rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new UserError(`linked folder ${JSON.stringify(folder)} is not a folder inside the workspace: name one relative to it, such as node_modules`);
    }
  }
}

/** The request's inputs checked (numbers, workspace, file, selection, target) and the file text and test command found. */
export async function checkRequest(request: FixRequest): Promise<PreparedRequest> {
  checkNumbers(request);
  const workspaceStat = await stat(request.workspace).catch(() => undefined);
  if (!workspaceStat?.isDirectory()) throw new UserError(`workspace folder not found: ${request.workspace}`);
  checkLinkedFolders(request.workspace, request.isolation.linkedFolders);
  const filePath = resolve(request.workspace, request.relativePath);
  const rel = relative(request.workspace, filePath);
  if (rel.startsWith('..') || isAbsolute(rel) || rel === '') throw new UserError(`${request.relativePath} is not inside the workspace ${request.workspace}`);
  let text = request.unsavedText;
  if (text === undefined) {
    text = await readUserText(filePath, request.relativePath, `file not found: ${request.relativePath} (in ${request.workspace})`);
  }
  if (!(Number.isSafeInteger(request.start) && Number.isSafeInteger(request.end) && request.start >= 0 && request.start <= request.end && request.end <= text.length)) {
    throw new UserError(`the selection ${request.start}..${request.end} is outside ${request.relativePath} (${text.length} characters)`);
  }
  const selectedLines = text.slice(request.start, request.end).split('\n').length;
  if (selectedLines > MAX_SELECTION_LINES) {
    throw new UserError(`the selection spans ${selectedLines} lines; select at most ${MAX_SELECTION_LINES} (the function or lines that hold the bug)`);
  }
  const warnings: string[] = [];
  const relativePath = rel.split(sep).join('/');
  await checkTarget(request.workspace, relativePath, request.isolation.linkedFolders);
  if (isTestRelated(relativePath)) {
    warnings.push(`${request.relativePath} looks like a test file: a candidate that changes the tests can make them pass without fixing anything`);
  }
  const testCommand = request.testCommand?.trim() || detectTestCommand(request.workspace);
  return {
    relativePath,
    text,
    start: request.start,
    end: request.end,
    languageId: request.languageId ?? languageIdOf(request.relativePath),
    testCommand,
    warnings,
  };
}
