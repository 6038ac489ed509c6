// The request's test plan, worked out once before anything runs (SWE-bench's TestSpec): what each run starts, with
// which environment, and which runner's report the baseline and the staged runs read.
import { commandToRun } from './packageScript';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveRunner } from './runner';
import { pyenvShimBypass, toolchainLines } from './toolchain';
import type { Tool } from './toolchain';
import type { ResolvedRunner } from './runner';
import { reporterCommand } from '../testResults/reporterCommand';
import type { ReporterRun } from '../testResults/reporterCommand';
import { describeNarrowing } from '../testResults/selection';
import { wideRun } from './wideRuns';
import type { WideRun } from './wideRuns';

/** Everything about the test command that the runs of one request share. */
export interface TestPlan {
  /** The command as configured or detected: what the user sees and the log names. */
  readonly testCommand: string;
  /** What each plain run starts: the npm script's own command where it resolves, else `testCommand`. */
  readonly runCommand: string;
  /** The runs' environment (secrets already removed, npm's script variables added where the script resolved). */
  readonly env: NodeJS.ProcessEnv;
  /** The runner behind the command, or why per-test results cannot be had. */
  readonly runner?: ResolvedRunner;
  /** The whole suite with the runner's reporter on, given the report's path; absent without per-test results. */
  readonly fullCommand?: ReporterRun;
  /** The whole suite for a run that holds every slot, where the runner can use more of them than it would itself. */
  readonly wide?: WideRun;
  /** Whether a candidate first runs only the baseline's failing tests (needs `fullCommand`). */
  readonly staged: boolean;
  /** Lines for the log saying how the command runs and why. */
  readonly log: readonly string[];
}

export interface PlanOptions {
  readonly workspace: string;
  readonly testCommand: string;
  /** The scrubbed environment of the runs. */
  readonly env: NodeJS.ProcessEnv;
  /** Whether runs use this machine's node (false in a container): only then is an npm script run directly. */
  readonly usesHostTools: boolean;
  /**
   * Staging needs the baseline's failing tests, so it is off without the baseline; the runner's report is still
   * wanted then: each candidate's run is judged by its own per-test counts (suiteCensus).
   */
  readonly baselineCheck: boolean;
  readonly staged: boolean;
  /** The request's parallel slots: a run that holds them all may start that many test files at once (wideRuns.ts). */
  readonly slots?: number;
}

/** The tools a command runs on: python for pytest and python commands, node for the rest of a node project. */
function toolsOf(workspace: string, command: string): Tool[] {
  const python = /\b(?:python\d*(?:\.\d+)?|pytest|py\.test)\b/.test(command);
  const node = !python || existsSync(join(workspace, 'package.json'));
  return [...(node ? (['node'] as const) : []), ...(python ? (['python'] as const) : [])];
}

const MOCHA_CONFIGS = ['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.json', '.mocharc.jsonc', '.mocharc.yaml', '.mocharc.yml'];

/** Mocha adds command-line files to a configured `spec` (checked with mocha 11): stage 1 then loads the spec's files too. */
function mochaSpecNote(workspace: string, runner: string): string {
  if (runner !== 'mocha') return '';
  const read = (name: string) => {
    try {
      return readFileSync(join(workspace, name), 'utf8');
    } catch {
      return '';
    }
  };
  const config = MOCHA_CONFIGS.find((name) => /\bspec\b/.test(read(name)));
  const fromPackage = !config && /"mocha"\s*:\s*\{[^}]*"spec"/.test(read('package.json'));
  const where = config ?? (fromPackage ? 'package.json' : undefined);
  return where ? `; mocha adds them to the \`spec\` of ${where}, so the files that spec names load too` : '';
}

/** The plan for one request's test runs. */
export function planTests({ workspace, testCommand, env, usesHostTools, baselineCheck, staged: asked, slots = 1 }: PlanOptions): TestPlan {
  const staged = asked && baselineCheck;
  // npm's own start-up costs every run a few hundred milliseconds: the script it runs is resolved once, here.
  const toRun = commandToRun(workspace, testCommand, !usesHostTools, env);
  const log = [toRun.log];
  // In a container the image's tools run, and this machine's say nothing about them.
  const tools = usesHostTools ? toolsOf(workspace, testCommand) : [];
  const bypass = tools.includes('python') ? pyenvShimBypass(workspace, toRun.env) : undefined;
  const runEnv = bypass?.env ?? toRun.env;
  log.push(...toolchainLines(workspace, tools, runEnv), ...(bypass ? [`toolchain: ${bypass.note}`] : []));
  const runner = resolveRunner(workspace, testCommand);
  if (runner && 'adapter' in runner) log.push(...[runner.configNote, runner.coverageNote].filter((note) => note !== undefined));
  if (runner && 'unsupported' in runner) log.push(`per-test results: not available for \`${testCommand}\` (${runner.unsupported}); each candidate runs the whole command`);
  const noSelection = runner && 'adapter' in runner ? runner.noSelection : undefined;
  if (noSelection && staged) log.push(`staged verification: off, since ${noSelection}; each candidate runs the whole command, judged test by test`);
  if (staged && !noSelection && runner && 'adapter' in runner) log.push(describeNarrowing(runner.adapter.name, runner.base) + mochaSpecNote(workspace, runner.adapter.name));
  const fullCommand = runner && 'adapter' in runner ? reporterCommand(runner.adapter, runner.base) : undefined;
  const { wide, note } = fullCommand ? wideRun({ workspace, runner, env: runEnv, usesHostTools, slots }) : {};
  if (note) log.push(note);
  const plan = { testCommand, runCommand: toRun.command, env: runEnv, ...(runner ? { runner } : {}), ...(fullCommand ? { fullCommand } : {}), ...(wide ? { wide } : {}) };
  return { ...plan, staged: staged && !noSelection, log };
}
