// A runner's command as the executor takes it: given the report's path, the full suite (or only some tests) with the runner's reporter.
import type { RunnerAdapter } from './types';

/** A command builder for the executor: the full suite with the runner's reporter, or only `only`. */
export function reporterCommand(adapter: RunnerAdapter, base: string, only?: readonly string[]): ((reportPath: string) => string) | undefined {
  if (adapter.command(base, '/report', only) === undefined) return undefined;
  return (reportPath) => adapter.command(base, reportPath, only) as string;
}
