// Runs that hold every slot of a request (the baseline, the top-ranked fix's full run) tell a runner that starts one
// process per test file to start as many files at once as they hold slots, where the runner's own choice is fewer.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { isAbsolute, relative } from 'node:path';
import { reporterCommand } from '../testResults/reporterCommand';
import type { ReporterRun } from '../testResults/reporterCommand';
import { SHELL_ASSIGNMENT, shellWords } from '../testResults/shell';
import type { ResolvedRunner } from './runner';
import { onPath } from './toolchain';

/** The whole suite, started `width` test files at a time: for a run that holds `width` of the request's slots. */
export interface WideRun {
  readonly command: ReporterRun;
  readonly width: number;
}

export interface WideRunOptions {
  readonly workspace: string;
  readonly runner: ResolvedRunner | undefined;
  /** The runs' environment: its PATH finds the node that runs the command. */
  readonly env: NodeJS.ProcessEnv;
  /** Whether runs use this machine's node (false in a container, whose node this machine cannot ask). */
  readonly usesHostTools: boolean;
  /** The request's slots: what a run that holds all of them may keep busy. */
  readonly slots: number;
  /** Node's own number of test files at once here: availableParallelism() - 1, at least 1 (Node 20 to 24). */
  readonly runnerDefault?: number;
  /** Whether the node at `path` takes `--test-concurrency` (a probe of the real program, cached). */
  readonly takesConcurrency?: (path: string) => boolean;
}

const probed = new Map<string, boolean>();

/** Node 20.10+ knows the flag; an older one refuses it ("bad option") and the run would fail. */
function nodeTakesConcurrency(path: string): boolean {
  let known = probed.get(path);
  if (known === undefined) {
    try {
      execFileSync(path, ['--test-concurrency=1', '--version'], { stdio: 'ignore', timeout: 5000 });
      known = true;
    } catch {
      known = false;
    }
    probed.set(path, known);
  }
  return known;
}

/** The node program `base` starts, when it starts node itself and that program can be asked outside the sandbox. */
function nodeProgram(base: string, workspace: string, env: NodeJS.ProcessEnv): string | undefined {
  const words = shellWords(base);
  const program = Array.isArray(words) ? words.find((word) => !SHELL_ASSIGNMENT.test(word.value))?.value : undefined;
  if (program !== 'node' && !(program && isAbsolute(program) && program.endsWith('/node'))) return undefined;
  const path = program === 'node' ? onPath('node', env) : program;
  // A relative PATH entry or a program inside the workspace is the project's own file: it is not run outside the sandbox.
  if (!path || !isAbsolute(path) || !relative(workspace, path).startsWith('..')) return undefined;
  return path;
}

/**
 * The wide form of the runner's full command and the sentence the log says about it, or why there is none (for
 * tests and the log; undefined sentence when nothing would be gained and there is nothing to say).
 */
export function wideRun({ workspace, runner, env, usesHostTools, slots, runnerDefault = Math.max(1, availableParallelism() - 1), takesConcurrency = nodeTakesConcurrency }: WideRunOptions): { wide?: WideRun; note?: string } {
  if (!runner || !('adapter' in runner) || !runner.adapter.concurrent || slots <= runnerDefault) return {};
  const base = runner.adapter.concurrent(runner.base, slots);
  if (base === undefined) return { note: `test files at once: as the command says (it sets the runner's own number)` };
  if (/--(?:experimental-)?test-(?:concurrency|isolation)\b/.test(env.NODE_OPTIONS ?? '')) return { note: 'test files at once: as NODE_OPTIONS says' };
  if (!usesHostTools) return {};
  const program = nodeProgram(runner.base, workspace, env);
  if (!program || !takesConcurrency(program)) return { note: `test files at once: node's own choice (${program ? `${program} does not take --test-concurrency: Node 20.10 or later does` : 'the command does not start node itself'})` };
  const command = reporterCommand(runner.adapter, base);
  if (!command) return {};
  return {
    wide: { command, width: slots },
    note: `test files at once: a run that holds all ${slots} slots (the baseline when the candidates wait for it, the top-ranked fix's full run when the others ran only their reaching tests) starts ${slots} test files at once (--test-concurrency=${slots}; node's own choice here is ${runnerDefault}, which leaves cores idle while nothing else runs); other runs keep node's choice`,
  };
}
