// A runner whose report comes from a --require hook and whose selection is by file (tape, ava): its command and its report.
import { join } from 'node:path';
import { joinId, splitId, unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { withRequireHook } from './shell';
import type { TestResult } from './types';

/** What a hook runner's adapter tells hookCommand: its hook's file, the variable naming the report, its file swap. */
export interface HookRunner {
  readonly hookFile: string;
  readonly reportVariable: string;
  /** `base` with its file and glob arguments replaced by `files`; undefined when base is not a plain command of it. */
  readonly withFiles: (base: string, files: readonly string[]) => string | undefined;
}

/**
 * `VARIABLE=REPORT NODE_OPTIONS="--require HOOK …" base`; `only` (ids `file > …`) runs the ids' files, every test in
 * them, in place of the command's own. undefined for an empty `only`, an id naming no file, and a hook path holding
 * `"` or a backslash, which NODE_OPTIONS cannot quote.
 */
export function hookCommand(runner: HookRunner, base: string, reportPath: string, only: readonly string[] | undefined, outputDir: string): string | undefined {
  const hookPath = join(outputDir, runner.hookFile);
  if (only?.length === 0 || /["\\]/.test(hookPath)) return undefined;
  const files = only ? unique(only.map((id) => splitId(id).scope)) : undefined;
  if (files?.includes('')) return undefined;
  const selected = files ? runner.withFiles(base, files) : base;
  return selected === undefined ? undefined : withRequireHook(selected, runner.reportVariable, reportPath, hookPath);
}

/** The hook's report: one JSON line per test, `{file, names, outcome, message?}`; an empty `names` is the file itself. */
export function parseHookLines(report: string): TestResult[] {
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
