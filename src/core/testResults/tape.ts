// Tape: a --require hook reads tape's object stream beside its TAP output (tapeHook.ts); a selection is the ids' files.
import { join } from 'node:path';
import { joinId, splitId, unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { shellQuote, withFileArguments } from './shell';
import { TAPE_HOOK_FILE, TAPE_HOOK_SOURCE, TAPE_REPORT_VARIABLE } from './tapeHook';
import type { RunnerAdapter, TestResult } from './types';

/** Tape's options that take a value: the word after them is not a test file. */
const VALUE_OPTIONS = ['-r', '--require', '-i', '--ignore', '--ignore-pattern'];

/** `base` with its file and glob arguments replaced by `files`; undefined when base is not a plain tape command. */
function withFiles(base: string, files: readonly string[]): string | undefined {
  return withFileArguments(base, /(?:^|\/)tape$/, VALUE_OPTIONS, files);
}

/**
 * `base` with the hook in NODE_OPTIONS: ahead of the user's own NODE_OPTIONS, whether the environment or the
 * command's own `NODE_OPTIONS=…` prefix sets them. Node reads a double-quoted path inside NODE_OPTIONS as one word.
 */
function withHook(base: string, reportPath: string, hookPath: string): string {
  const require = `--require "${hookPath}"`;
  const report = `${TAPE_REPORT_VARIABLE}=${shellQuote(reportPath)}`;
  const own = /(^|\s)NODE_OPTIONS=/;
  if (own.test(base)) return `${report} ${base.replace(own, (_, space: string) => `${space}NODE_OPTIONS=${shellQuote(`${require} `)}`)}`;
  return `${report} NODE_OPTIONS=${shellQuote(require)}"\${NODE_OPTIONS:+ $NODE_OPTIONS}" ${base}`;
}

/**
 * Command: `VERIFIED_FIX_TAPE_REPORT=REPORT NODE_OPTIONS="--require HOOK …" base`, tape's TAP on stdout as always.
 * Ids are `file > test > subtest`. `only` runs the ids' files, every test in them (file-level selection: tape has
 * no name filter on its command line); the others' verdicts come from that run too.
 */
export const tapeAdapter: RunnerAdapter = {
  name: 'tape',
  outputFiles: { [TAPE_HOOK_FILE]: TAPE_HOOK_SOURCE },

  command(base, reportPath, only, outputDir = '') {
    const hookPath = join(outputDir, TAPE_HOOK_FILE);
    if (only?.length === 0 || /["\\]/.test(hookPath)) return undefined;
    const files = only ? unique(only.map((id) => splitId(id).scope)) : undefined;
    if (files?.includes('')) return undefined;
    const selected = files ? withFiles(base, files) : base;
    return selected === undefined ? undefined : withHook(selected, reportPath, hookPath);
  },

  parse(report) {
    const results: TestResult[] = [];
    for (const line of jsonLines(report)) {
      const file = str(line.file);
      const outcome = str(line.outcome);
      if (file === undefined || !Array.isArray(line.names) || (outcome !== 'passed' && outcome !== 'failed' && outcome !== 'skipped')) continue;
      const id = joinId(file, line.names.filter((name): name is string => typeof name === 'string'));
      const message = outcome === 'failed' ? boundMessage(str(line.message)) : undefined;
      results.push(message ? { id, outcome, message } : { id, outcome });
    }
    return results;
  },
};
