// Runs the built CLI (dist/cli.js) as a real child process.
import { execFile } from 'node:child_process';
import { cliPath } from './paths';

export { cliPath };

/**
 * `--sandbox BACKEND`, with the opt-in process group needs as root (the tests run as root on CI, where it is refused
 * without it).
 */
export function sandboxArgs(backend: string): string[] {
  return ['--sandbox', backend, ...(backend === 'process-group' ? ['--allow-process-group-as-root'] : [])];
}

export interface CliResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The behaviour check (default quick) adds two recording runs and the replays to every `fix` request, and the strength
 * check (default quick) up to 10 variant runs per verified fix; only the suites about them ask for them
 * (`--behaviour quick`, `--strength quick`), so the CLI suites stay lean. Their defaults are covered by the options table.
 * The strength check's budget is off unless a suite gives one.
 */
function withTestDefaults(args: readonly string[]): readonly string[] {
  if (args[0] !== 'fix') return args;
  // The suites that ask for the strength check judge what it finds; a budget would end it wherever a loaded runner
  // happens to be. strengthCost.test.ts gives its own budget.
  const budget = args.includes('--strength-budget') ? [] : ['--strength-budget', '0'];
  return [...args, ...(args.includes('--behaviour') ? [] : ['--behaviour', 'off']), ...(args.includes('--strength') ? [] : ['--strength', 'off']), ...budget];
}

export function runCli(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    // The limit only ends a hung CLI: generous, since a loaded runner takes minutes for what takes seconds idle.
    execFile(
      process.execPath,
      [cliPath, ...withTestDefaults(args)],
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? 99 : 0;
        resolve({ exitCode: code, stdout, stderr });
      },
    );
  });
}
