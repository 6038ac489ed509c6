// A runner whose report comes from a --require hook and whose selection is by file (tape, ava): its command and its report.
import { join } from 'node:path';
import { joinId, splitId, unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { withFileArguments, withRequireHook } from './shell';
import type { RunnerAdapter, RunnerName, TestResult } from './types';

/** A runner whose report comes from a --require hook: its hook, the variable naming the report, how to find its files. */
export interface HookRunner {
  readonly name: RunnerName;
  readonly hookFile: string;
  readonly hookSource: string;
  readonly reportVariable: string;
  /** The runner's executable, as the command's word ends (`/(?:^|\/)tape$/`). */
  readonly executable: RegExp;
  /** Its options that take their value as the next word: that word is not a test file. */
  readonly valueOptions: readonly string[];
}

/**
 * The adapter of a hook runner. Command: `VARIABLE=REPORT NODE_OPTIONS="--require HOOK …" base`, the runner's own
 * output printing as always; `only` (ids `file > …`) runs the ids' files, every test in them, in place of the
 * command's own files. No command for an empty `only`, an id naming no file, a base that is not a plain command of
 * the runner, and a hook path holding `"` or a backslash, which NODE_OPTIONS cannot quote.
 */
export function hookAdapter(runner: HookRunner): RunnerAdapter {
  return {
    name: runner.name,
    outputFiles: { [runner.hookFile]: runner.hookSource },
    command(base, reportPath, only, outputDir = '') {
      const hookPath = join(outputDir, runner.hookFile);
      if (only?.length === 0) return undefined;
      const files = only ? unique(only.map((id) => splitId(id).scope)) : undefined;
      if (files?.includes('')) return undefined;
      const selected = files ? withFileArguments(base, runner.executable, runner.valueOptions, files) : base;
      return selected === undefined ? undefined : withRequireHook(selected, runner.reportVariable, reportPath, hookPath);
    },
    parse: parseHookLines,
  };
}

/** The hook's report: one JSON line per test, `{file, names, outcome, message?}`; an empty `names` is the file itself. */
function parseHookLines(report: string): TestResult[] {
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
}
