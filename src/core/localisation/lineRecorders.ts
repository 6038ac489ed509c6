// How fault localisation records the lines one test ran, per runner. Node's own coverage (NODE_V8_COVERAGE) reads a
// file as written, as node's test runner and mocha run it. Jest never runs a file as written: it runs what its
// transform returned (babel-jest by default, ts-jest), wrapped in a function of its own, so V8's offsets are never
// the file's. Jest's own coverage with V8 as its provider (jest 25 and later) maps them back through the
// transform's source maps, and writes istanbul's JSON, whose statements give the lines of the file as written.
import { readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { shellQuote, shellWords } from '../testResults/shell';
import type { RunnerName } from '../testResults/types';
import { scripts } from './reachingTests';
import { readV8Reports, V8_COVERAGE_VARIABLE, v8LineHits } from './v8Coverage';

/** What one run recorded: the files it names (a url or a path), and the lines of one of them as written. */
export interface RecordedLines {
  readonly names: readonly string[];
  /** The 1-based lines of the file at `relativePath` (as `fileText`) that ran; undefined when the run has none of it. */
  linesOf(relativePath: string, fileText: string): Set<number> | undefined;
}

export interface LineRecorder {
  /** After "no run recorded <file>": what can cause it. */
  readonly unrecorded: string;
  /** After "the failing tests did not fail again when run alone with coverage": what else can cause it. */
  readonly refused?: string;
  /** `command` with its coverage written into `outputDir`. */
  command(command: string, outputDir: string): string;
  /** What the run in `cwd` recorded into `outputDir`. */
  read(outputDir: string, cwd: string): Promise<RecordedLines>;
}

const NODE_COVERAGE: LineRecorder = {
  unrecorded: ' as it is written (transformed before it runs, by Babel or a bundler, or never loaded)',
  command: (command, outputDir) => `${V8_COVERAGE_VARIABLE}=${shellQuote(outputDir)} ${command}`,
  async read(outputDir) {
    const reports = await readV8Reports(outputDir);
    const names = reports.flatMap((report) => scripts(report).map((script) => script.url));
    return { names, linesOf: (relativePath, fileText) => v8LineHits(reports, relativePath, fileText) };
  },
};

/**
 * Why the failing tests' runs gave no lines: `anyFailedAgain` (some failing test failed again in its run) means
 * what it ran was not recorded for `subject` ("src/a.js", "a source file"); else the failing tests did not fail.
 */
export function noLinesProblem(recorder: LineRecorder, anyFailedAgain: boolean, subject: string): string {
  return anyFailedAgain ? `no run recorded ${subject}${recorder.unrecorded}` : `the failing tests did not fail again when run alone with coverage${recorder.refused ?? ''}`;
}

/** Jest's coverage folder in the run's output folder. */
export const JEST_COVERAGE_FOLDER = 'verified-fix-jest-coverage';

/** A coverage file larger than this is not read: a suite's own files are far smaller, a hostile run's might not be. */
const MAX_JEST_COVERAGE_BYTES = 64 * 1024 * 1024;

interface IstanbulFile {
  readonly statementMap: Readonly<Record<string, { readonly start: { readonly line: number }; readonly end: { readonly line: number } }>>;
  readonly s: Readonly<Record<string, number>>;
}

function isIstanbulFile(value: unknown): value is IstanbulFile {
  const file = value as IstanbulFile;
  return typeof file?.statementMap === 'object' && file.statementMap !== null && typeof file.s === 'object' && file.s !== null;
}

/** The lines of the statements that ran, within the file's own lines (a wrong map can point past its end). */
function ranLines(file: IstanbulFile, lineCount: number): Set<number> {
  const lines = new Set<number>();
  for (const [key, count] of Object.entries(file.s)) {
    const at = file.statementMap[key];
    if (!(typeof count === 'number' && count > 0) || typeof at?.start?.line !== 'number' || typeof at.end?.line !== 'number') continue;
    for (let line = Math.max(1, at.start.line); line <= Math.min(at.end.line, lineCount); line++) lines.add(line);
  }
  return lines;
}

const JEST_COVERAGE: LineRecorder = {
  unrecorded: " (jest's coverage holds a file only where a test loaded it and the config's collectCoverageFrom takes it in)",
  refused: '; jest before 25 refuses the coverage flags',
  // After the command's own flags, which never set these two (lineRecorderFor: given twice, jest takes an option as
  // a list and stops); jest's command line overrides its config.
  command: (command, outputDir) =>
    `${command} --coverage --coverageProvider=v8 --coverageReporters=json ${shellQuote(`--coverageDirectory=${join(outputDir, JEST_COVERAGE_FOLDER)}`)}`,
  async read(outputDir, cwd) {
    const path = join(outputDir, JEST_COVERAGE_FOLDER, 'coverage-final.json');
    let files: Record<string, unknown> = {};
    try {
      if ((await stat(path)).size <= MAX_JEST_COVERAGE_BYTES) {
        const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
        if (parsed && typeof parsed === 'object') files = parsed as Record<string, unknown>;
      }
    } catch {
      // no report (jest before 25 refuses the flags; a run cut short): no lines
    }
    // Jest names each file by its path in the run's folder: only the file at that very path is the file (a file
    // elsewhere whose path ends the same way, `src/util.js` for `util.js`, is another one).
    const byPath = new Map<string, IstanbulFile>();
    for (const [name, file] of Object.entries(files)) if (isIstanbulFile(file)) byPath.set(relative(cwd, name).split(sep).join('/'), file);
    const names = [...byPath.keys()].filter((path) => !path.startsWith('../'));
    return {
      names,
      linesOf(relativePath, fileText) {
        const file = byPath.get(relativePath);
        return file === undefined ? undefined : ranLines(file, fileText.split('\n').length);
      },
    };
  },
};

/** Jest's coverage options the engine sets: where a command sets one itself, jest would get it twice. */
const JEST_COVERAGE_OPTION = /^--coverage-?(?:directory|provider)(?:=|$)/i;

/** How `runner`'s tests (run by `base`) record their lines, or why they cannot. */
export function lineRecorderFor(runner: RunnerName, base = ''): LineRecorder | { readonly problem: string } {
  if (runner === 'node' || runner === 'mocha') return NODE_COVERAGE;
  if (runner === 'jest') {
    const words = shellWords(base);
    const own = Array.isArray(words) ? words.find((word) => JEST_COVERAGE_OPTION.test(word.value))?.value : undefined;
    return own === undefined ? JEST_COVERAGE : { problem: `the command sets jest's ${own.split('=')[0]} itself, and a second one would stop jest (it takes the two as a list)` };
  }
  if (runner === 'vitest') return { problem: 'vitest runs a copy of each file that vite transformed, and its own coverage needs a package of its own (@vitest/coverage-v8)' };
  return { problem: `coverage is read for node's test runner, mocha, jest and pytest, not ${runner}` };
}
