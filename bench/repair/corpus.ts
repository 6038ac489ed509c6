// The repair corpus under bench/repair/corpus: reading its tasks, copying them with or without their hidden tests, running them.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Verdict } from '../../src/core/contract/fixRequest';
import type { SandboxBackend } from '../../src/core/sandbox/backend';
import { runTestCommand } from '../../src/core/sandbox/runCommand';
import { applyReplacement, lineRangeToOffsets } from '../../src/core/base/textRange';

/** The folder of the engine-invisible tests in each task; never copied into a workspace the engine sees. */
export const HIDDEN_DIR = 'hidden';

/** The languages of the corpus, in VS Code's spelling (also the engine's `languageId`). */
export type CorpusLanguage = 'javascript' | 'python';

/** One seeded one-function bug, as its `task.json` describes it. */
export interface RepairTask {
  readonly id: string;
  readonly language: CorpusLanguage;
  /** The buggy file, relative to the task folder. */
  readonly file: string;
  /** 1-based inclusive lines of the buggy statement(s): the "exact" selection. */
  readonly bugLines: readonly [number, number];
  /** 1-based inclusive lines of the whole enclosing function: the "function" selection. */
  readonly functionLines: readonly [number, number];
  readonly multiToken: boolean;
  /** A short name for the kind of bug (`missing-conjunct`, `wrong-call`, …). */
  readonly kind: string;
  /** The corrected text of `bugLines`, lines joined by `\n`, no final line break. */
  readonly fixed: string;
  /** The task's folder in the corpus. */
  readonly dir: string;
}

/** Finds bench/repair/corpus above `from`: the same walk works from the sources and from the bundles under out/. */
export function findCorpus(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const corpus = join(dir, 'bench', 'repair', 'corpus');
    if (existsSync(corpus)) return corpus;
    if (dirname(dir) === dir) throw new Error(`no bench/repair/corpus above ${from}`);
  }
}

function lineRange(value: unknown): [number, number] | undefined {
  const match = typeof value === 'string' ? /^(\d+)-(\d+)$/.exec(value) : null;
  if (!match) return undefined;
  const range: [number, number] = [Number(match[1]), Number(match[2])];
  return range[0] >= 1 && range[0] <= range[1] ? range : undefined;
}

/** Reads one task folder; `problems` says what is malformed (then `task` is absent). */
export function readTask(dir: string): { task?: RepairTask; problems: string[] } {
  const problems: string[] = [];
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(join(dir, 'task.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    return { problems: [`task.json: ${(error as Error).message}`] };
  }
  const bugLines = lineRange(raw.bugLines);
  const functionLines = lineRange(raw.functionLines);
  const { id, language, file, multiToken, kind, fixed } = raw;
  if (typeof id !== 'string' || id !== dir.split(/[\\/]/).pop()) problems.push('id must be the folder name');
  if (language !== 'javascript' && language !== 'python') problems.push('language must be javascript or python');
  if (typeof file !== 'string' || !existsSync(join(dir, file))) problems.push('file must name an existing file');
  if (!bugLines) problems.push('bugLines must look like A-B with 1 <= A <= B');
  if (!functionLines) problems.push('functionLines must look like A-B with 1 <= A <= B');
  if (bugLines && functionLines && (bugLines[0] < functionLines[0] || bugLines[1] > functionLines[1])) problems.push('bugLines must lie inside functionLines');
  if (typeof multiToken !== 'boolean') problems.push('multiToken must be a boolean');
  if (typeof kind !== 'string' || kind === '') problems.push('kind must be a non-empty string');
  if (typeof fixed !== 'string' || fixed.endsWith('\n')) problems.push('fixed must be a string without a final line break');
  if (!existsSync(join(dir, HIDDEN_DIR)) || readdirSync(join(dir, HIDDEN_DIR)).length === 0) problems.push('hidden/ must hold the stronger tests');
  if (problems.length > 0 || !bugLines || !functionLines) return { problems };
  const task: RepairTask = {
    id: id as string, language: language as CorpusLanguage, file: file as string, bugLines, functionLines,
    multiToken: multiToken as boolean, kind: kind as string, fixed: fixed as string, dir,
  };
  return { task, problems };
}

/** Every task of the corpus, sorted by id; throws on a malformed one, naming it. */
export function loadCorpus(corpus: string = findCorpus()): RepairTask[] {
  const dirs = readdirSync(corpus).filter((name) => statSync(join(corpus, name)).isDirectory()).sort();
  return dirs.map((name) => {
    const { task, problems } = readTask(join(corpus, name));
    if (!task) throw new Error(`${name}: ${problems.join('; ')}`);
    return task;
  });
}

/** The command the engine runs: the task's whole visible suite. */
export function visibleCommand(task: RepairTask): string {
  return task.language === 'javascript' ? 'node --test' : 'python3 -m pytest -q';
}

/**
 * The command for the hidden tests, run from the root of a copy made with them; `withVisible` runs the visible tests in
 * the same process too (one start-up instead of two).
 */
export function hiddenCommand(task: RepairTask, options: { withVisible?: boolean } = {}): string {
  if (task.language === 'python') return `python3 -m pytest -q ${options.withVisible ? 'tests ' : ''}${HIDDEN_DIR}`;
  // Named so that a plain `node --test` never collects them: they must be named to run.
  const list = (folder: string) => readdirSync(join(task.dir, folder)).filter((f) => f.endsWith('.js')).sort().map((f) => `${folder}/${f}`);
  return `node --test ${[...(options.withVisible ? list('test') : []), ...list(HIDDEN_DIR)].join(' ')}`;
}

/** Copies the task into a new folder under `parent`; without `hidden` the copy is what the engine may see. */
export function copyTask(task: RepairTask, parent: string, options: { hidden: boolean }): string {
  const target = mkdtempSync(join(parent, `${task.id}-`));
  const skip = (rel: string) => rel.split(sep).some((part) => part === '__pycache__' || part === '.pytest_cache') ||
    (!options.hidden && (rel === HIDDEN_DIR || rel.startsWith(HIDDEN_DIR + sep)));
  cpSync(task.dir, target, { recursive: true, filter: (source) => !skip(relative(task.dir, source)) });
  return target;
}

/** The selection of a selection kind as [start, end) offsets into the file text. */
export function selectionOffsets(text: string, lines: readonly [number, number]): { start: number; end: number } {
  return lineRangeToOffsets(text, lines[0], lines[1]);
}

/** The file text with `bugLines` replaced by the task's `fixed` text. */
export function fixedText(task: RepairTask, buggy: string): string {
  const { start, end } = selectionOffsets(buggy, task.bugLines);
  return applyReplacement(buggy, start, end, task.fixed);
}

/** Writes `text` as the task's file in a copy. */
export function writeTaskFile(copy: string, task: RepairTask, text: string): void {
  writeFileSync(join(copy, task.file), text);
}

/** Per run: the corpus's tests take well under a second, but a mutant may loop forever on an input only hidden tests try. */
const RUN_TIMEOUT_MS = 60_000;

/** Runs `command` in a copy under the sandbox, as the engine would run a candidate's tests. */
export function runInCopy(copy: string, command: string, backend: SandboxBackend): Promise<Verdict> {
  // Byte-code caches would only be written into a copy about to be removed.
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  return runTestCommand({ command, cwd: copy, timeoutMs: RUN_TIMEOUT_MS, backend, allowNetwork: false, memoryMB: 4096, env });
}
