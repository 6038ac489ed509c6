// Reads which lines of one file a failing test run's output points at (stack traces, tracebacks, compiler errors).
import { normalisePath, outputLocations } from '../stackLocations';

/**
 * The 1-based lines of `relativePath` that `output` names, in order of first mention. Tests run in temporary
 * copies of the workspace, so an absolute path matches when it ends with `/<relativePath>`.
 */
export function failureLines(output: string, relativePath: string): number[] {
  const wanted = normalisePath(relativePath);
  const named = outputLocations(output).filter(({ path }) => path === wanted || path.endsWith('/' + wanted));
  return [...new Set(named.map(({ line }) => line))];
}
