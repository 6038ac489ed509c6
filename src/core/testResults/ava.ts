// Ava: a --require hook reads ava's own events beside its reporter (avaHook.ts); a selection is the ids' files.
import { AVA_HOOK_FILE, AVA_HOOK_SOURCE, AVA_REPORT_VARIABLE } from './avaHook';
import { hookCommand, parseHookLines } from './hookCommand';
import { withFileArguments } from './shell';
import type { RunnerAdapter } from './types';

/** Ava's options that take their value as the next word: that word is not a test file. */
const VALUE_OPTIONS = ['-m', '--match', '-c', '--concurrency', '-T', '--timeout', '--config', '--node-arguments', '--color'];

/** `base` with its file and glob arguments replaced by `files`; undefined when base is not a plain ava command. */
function withFiles(base: string, files: readonly string[]): string | undefined {
  return withFileArguments(base, /(?:^|\/)ava$/, VALUE_OPTIONS, files);
}

/**
 * Command: `VERIFIED_FIX_AVA_REPORT=REPORT NODE_OPTIONS="--require HOOK …" base`, ava's own reporter (`--tap` or its
 * default one) printing as always. Ids are `file > title`. `only` runs the ids' files, every test in them (ava's
 * `--match` compares titles without their files); the others' verdicts come from that run too.
 */
export const avaAdapter: RunnerAdapter = {
  name: 'ava',
  outputFiles: { [AVA_HOOK_FILE]: AVA_HOOK_SOURCE },

  command(base, reportPath, only, outputDir = '') {
    return hookCommand({ hookFile: AVA_HOOK_FILE, reportVariable: AVA_REPORT_VARIABLE, withFiles }, base, reportPath, only, outputDir);
  },

  parse: parseHookLines,
};
