// Tape: a --require hook reads tape's object stream beside its TAP output (tapeHook.ts); a selection is the ids' files.
import { hookAdapter } from './hookCommand';
import { TAPE_HOOK_FILE, TAPE_HOOK_SOURCE, TAPE_REPORT_VARIABLE } from './tapeHook';

/**
 * Tape's TAP prints on stdout as always. Ids are `file > test > subtest`. `only` runs the ids' files, every test in
 * them (file-level selection: tape has no name filter on its command line); the others' verdicts come from that run
 * too.
 */
export const tapeAdapter = hookAdapter({
  name: 'tape',
  hookFile: TAPE_HOOK_FILE,
  hookSource: TAPE_HOOK_SOURCE,
  reportVariable: TAPE_REPORT_VARIABLE,
  executable: /(?:^|\/)tape$/,
  valueOptions: ['-r', '--require', '-i', '--ignore', '--ignore-pattern'],
});
