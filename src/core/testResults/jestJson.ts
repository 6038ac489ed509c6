// Reads the JSON report jest writes with --json, which vitest's json reporter copies: per file, per test.
import { joinId } from './ids';
import { boundMessage, parseJson, relativeTo, str } from './reportText';
import type { TestOutcome, TestResult } from './types';

function outcomeOf(status: unknown): TestOutcome {
  // jest: passed, failed, pending, todo, skipped, disabled; vitest adds its own spellings of "did not run".
  return status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped';
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The tests of a jest or vitest JSON report, ids `file > describe… > title` with the file made relative to `cwd`.
 * A file that failed without a failing test (it did not load, or a hook threw and vitest skipped its tests)
 * becomes one failed result with the file's own id.
 */
export function parseJestJson(report: string, cwd: string): TestResult[] {
  const data = parseJson(report) as { testResults?: unknown } | undefined;
  if (!data || !Array.isArray(data.testResults)) return [];
  const results: TestResult[] = [];
  for (const file of data.testResults as Array<Record<string, unknown>>) {
    const name = file && str(file.name);
    if (!name) continue;
    const path = relativeTo(cwd, name);
    let failedTests = 0;
    for (const test of Array.isArray(file.assertionResults) ? (file.assertionResults as Array<Record<string, unknown>>) : []) {
      const title = test && str(test.title);
      if (title === undefined) continue;
      const outcome = outcomeOf(test.status);
      const id = joinId(path, [...texts(test.ancestorTitles), title]);
      const message = outcome === 'failed' ? boundMessage(texts(test.failureMessages).join('\n')) : undefined;
      if (outcome === 'failed') failedTests++;
      results.push(message ? { id, outcome, message } : { id, outcome });
    }
    if (file.status === 'failed' && failedTests === 0) {
      const message = boundMessage(str(file.message) || str(file.failureMessage));
      results.push(message ? { id: path, outcome: 'failed', message } : { id: path, outcome: 'failed' });
    }
  }
  return results;
}
