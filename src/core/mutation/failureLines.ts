// Reads which lines of one file a failing test run's output points at (stack traces, tracebacks, compiler errors).
import { isWorkspaceFile, outputLocations } from '../testResults/stackLocations';

/** The 1-based lines of `relativePath` that `output` names, in order of first mention (see `isWorkspaceFile`). */
export function failureLines(output: string, relativePath: string): number[] {
  const named = outputLocations(output).filter(({ path }) => isWorkspaceFile(path, relativePath));
  return [...new Set(named.map(({ line }) => line))];
}
