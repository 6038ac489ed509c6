// Ava: a --require hook reads ava's own events beside its reporter (avaHook.ts); a selection is the ids' files.
import { AVA_HOOK_FILE, AVA_HOOK_SOURCE, AVA_REPORT_VARIABLE } from './avaHook';
import { hookAdapter } from './hookCommand';

/**
 * Ava's own reporter (`--tap` or its default one) prints as always. Ids are `file > title`. `only` runs the ids'
 * files, every test in them (ava's `--match` compares titles without their files); the others' verdicts come from
 * that run too.
 */
export const avaAdapter = hookAdapter({
  name: 'ava',
  hookFile: AVA_HOOK_FILE,
  hookSource: AVA_HOOK_SOURCE,
  reportVariable: AVA_REPORT_VARIABLE,
  executable: /(?:^|\/)ava$/,
  valueOptions: ['-m', '--match', '-c', '--concurrency', '-T', '--timeout', '--config', '--node-arguments', '--color'],
});
