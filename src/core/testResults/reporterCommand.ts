// A runner's command as the executor takes it: given the report's path, the full suite (or only some tests) with the runner's reporter.
import type { RunnerAdapter } from './types';

/** What a run with per-test results hands the executor: spreads into `RunOptions` as it is. */
export interface ReporterRun {
  /** The command, given the report's path and (with `outputFiles`) the run's output folder. */
  readonly command: (reportPath: string, outputDir?: string) => string;
  /** The files the command needs in the run's output folder (a runner hook), when the adapter needs any. */
  readonly outputFiles?: Readonly<Record<string, string>>;
}

/** The full suite with the runner's report, or only `only`; undefined when the adapter cannot build it. */
export function reporterCommand(adapter: RunnerAdapter, base: string, only?: readonly string[]): ReporterRun | undefined {
  if (adapter.command(base, '/report', only, '/output') === undefined) return undefined;
  const command = (reportPath: string, outputDir?: string) => adapter.command(base, reportPath, only, outputDir) as string;
  return adapter.outputFiles ? { command, outputFiles: adapter.outputFiles } : { command };
}
