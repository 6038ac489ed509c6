// How `fix` without --file/--lines reports where it looked: the localisation's lines for people and its JSON for bots.
import type { LocalisedWorkspace } from '../core/engine/workspaceLocalisation';
import type { WorkspaceFixResult } from '../core/engine/workspaceFix';
import { testLabel } from '../core/localisation/rankFunctions';
import { sampleJson, sampleRecords } from '../core/statistics/resultsFile';
import type { TaskRecords } from '../core/statistics/resultsFile';

/** Functions listed beyond those tried: enough to see what came next. */
const MORE_SHOWN = 3;

/** What the localisation found, before any candidate ran (the CLI prints it to stderr as it comes). */
export function localisedLines(localisation: LocalisedWorkspace): string[] {
  const failing = localisation.failingTests;
  const head = failing.length > 0
    ? `${failing.length} failing test${failing.length === 1 ? '' : 's'} (${failing.slice(0, 3).map((id) => `\`${testLabel(id)}\``).join(', ')}${failing.length > 3 ? ', …' : ''}); ranked by ${localisation.evidence}:`
    : `no per-test results; ranked by ${localisation.evidence}:`;
  return [head, ...localisation.explanations.map((line) => `  ${line}`)];
}

/** The human report's opening: where the request looked, why, and what each function tried gave. */
export function localisationLines(out: WorkspaceFixResult): string[] {
  const lines = ['Where the failing tests point:', ...localisedLines(out.localisation).map((line) => `  ${line}`)];
  const shown = out.localisation.ranked.slice(0, out.tried.length + MORE_SHOWN);
  for (const [i, f] of shown.entries()) {
    const tried = out.tried[i];
    const what = tried ? `tried: ${tried.passed} of ${tried.samples} samples passed${tried.verified ? ' — the fix is here' : ''}` : 'not tried';
    lines.push(`  ${i + 1}. ${f.relativePath}:${f.name} (lines ${f.startLine}–${f.endLine}), score ${f.score.toFixed(2)}: ${what}`);
  }
  if (out.found) lines.push(`The statistics below are this function's (${out.found.relativePath}:${out.found.name}): it is the task.`);
  return lines;
}

/** `localisation` in `--json`: the failing tests, the evidence, and every ranked function with what trying it gave. */
export function localisationJson(out: WorkspaceFixResult): object {
  const { localisation } = out;
  return {
    failingTests: localisation.failingTests,
    evidence: localisation.evidence,
    explanations: localisation.explanations,
    coverageRuns: localisation.coverageRuns,
    functions: localisation.ranked.map((f, i) => {
      const tried = out.tried[i];
      return {
        file: f.relativePath,
        name: f.name,
        lines: [f.startLine, f.endLine],
        score: f.score,
        coverage: f.coverage,
        stack: f.stack,
        tried: tried !== undefined,
        ...(tried ? { samples: tried.samples, passed: tried.passed, verified: tried.verified, results: sampleRecords(tried.result).map(sampleJson) } : {}),
      };
    }),
  };
}

/**
 * The results file's records of a workspace-level request: one task (the function where the fix was found, or the
 * last one tried), holding the samples of every function tried, each naming its function in `site`: the request
 * spent one budget, so its pass@k counts every sample of it.
 */
export function workspaceTaskRecords(out: WorkspaceFixResult, taskId: string): TaskRecords {
  const samples = out.tried.flatMap((tried) =>
    sampleRecords(tried.result).map((record) => ({ ...record, site: `${tried.relativePath}:${tried.startLine}-${tried.endLine} ${tried.name}` })),
  );
  return { taskId, samples, baselinePassed: out.result?.baselinePassed ?? false };
}
