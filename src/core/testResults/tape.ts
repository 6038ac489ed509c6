// Tape: a --require hook reads tape's object stream beside its TAP output (tapeHook.ts); a selection is the ids' files.
import { hookCommand, parseHookLines } from './hookCommand';
import { withFileArguments } from './shell';
import { TAPE_HOOK_FILE, TAPE_HOOK_SOURCE, TAPE_REPORT_VARIABLE } from './tapeHook';
import type { RunnerAdapter } from './types';

/** Tape's options that take a value: the word after them is not a test file. */
const VALUE_OPTIONS = ['-r', '--require', '-i', '--ignore', '--ignore-pattern'];

/** `base` with its file and glob arguments replaced by `files`; undefined when base is not a plain tape command. */
function withFiles(base: string, files: readonly string[]): string | undefined {
  return withFileArguments(base, /(?:^|\/)tape$/, VALUE_OPTIONS, files);
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
    return hookCommand({ hookFile: TAPE_HOOK_FILE, reportVariable: TAPE_REPORT_VARIABLE, withFiles }, base, reportPath, only, outputDir);
  },

  parse: parseHookLines,
};
