// `npm run bench:repair`: the mutation provider on the repair corpus, exact-line and whole-function selections, checked by hidden tests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runFix } from '../src/core/engine/runFix';
import type { FixRequest, FixResult } from '../src/core/contract/fixRequest';
import { silentLogger } from '../src/core/base/logger';
import { createMutationProvider } from '../src/core/providers/mutationProvider';
import type { CandidateProvider, SiteRanking } from '../src/core/contract/provider';
import type { SandboxBackend } from '../src/core/sandbox/backend';
import { detectSandbox } from '../src/core/sandbox/detect';
import { applyReplacement } from '../src/core/base/textRange';
import type { RepairTask } from './repair/corpus';
import { copyTask, findCorpus, fixedText, hiddenCommand, loadCorpus, runInCopy, selectionOffsets, visibleCommand, writeTaskFile } from './repair/corpus';
import type { RequestOutcome, SelectionKind, VerifiedCandidate } from './repair/summary';
import { firstCorrectRank, formatTable, formatTimes, SELECTION_KINDS, summarize } from './repair/summary';
import { describeProtections } from '../src/core/contract/protections';

const USAGE = 'usage: npm run bench:repair -- [--tasks id1,id2] [--n 10,30,100] [--kinds exact,function] [--localisation on|off] [--json out.json]';

interface BenchOptions {
  readonly tasks?: readonly string[];
  readonly ns: readonly number[];
  readonly kinds: readonly SelectionKind[];
  /** Fault localisation (the request's `faultLocalisation`): on by default, as in the product. */
  readonly localisation: boolean;
  readonly json?: string;
}

function parseArgs(argv: readonly string[]): BenchOptions {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (!['--tasks', '--n', '--kinds', '--localisation', '--json'].includes(flag) || value === undefined) throw new Error(`bad argument "${argv[i] ?? flag}"\n${USAGE}`);
    values.set(flag, value);
  }
  const list = (flag: string) => values.get(flag)?.split(',').map((s) => s.trim()).filter(Boolean);
  const ns = (list('--n') ?? ['10', '30', '100']).map(Number);
  if (ns.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error(`--n takes positive integers\n${USAGE}`);
  const kinds = list('--kinds') ?? [...SELECTION_KINDS];
  const unknown = kinds.filter((k) => !(SELECTION_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`unknown selection kind(s) ${unknown.join(', ')}; the kinds are ${SELECTION_KINDS.join(', ')}`);
  const tasks = list('--tasks');
  const json = values.get('--json');
  const localisation = values.get('--localisation') ?? 'on';
  if (localisation !== 'on' && localisation !== 'off') throw new Error(`--localisation takes on or off\n${USAGE}`);
  return { localisation: localisation === 'on', ns: [...new Set(ns)].sort((a, b) => a - b), kinds: kinds as SelectionKind[], ...(tasks ? { tasks } : {}), ...(json ? { json } : {}) };
}

/** What the user would select: the buggy lines themselves, or the whole function around them. */
function selectedLines(task: RepairTask, selection: SelectionKind): readonly [number, number] {
  return selection === 'exact' ? task.bugLines : task.functionLines;
}

/** The selection's text once the task is fixed: what a candidate equal to the reference fix would read. */
function referenceReplacement(task: RepairTask, buggy: string, selection: SelectionKind): string {
  const lines = selectedLines(task, selection);
  const grown = task.fixed.split('\n').length - (task.bugLines[1] - task.bugLines[0] + 1);
  const fixed = fixedText(task, buggy);
  const { start, end } = selectionOffsets(fixed, [lines[0], lines[1] + grown]);
  return fixed.slice(start, end);
}

/**
 * Where the reference fix stands in the generator's whole order for this selection (1-based), and how many mutants
 * there are: asked of the provider itself with the baseline's output and the request's fault-localisation ranking,
 * so the order is the one the request had. null: the generator never produces the reference fix.
 */
async function referencePosition(
  task: RepairTask, text: string, selection: SelectionKind, result: FixResult, localised: Promise<SiteRanking | undefined> | undefined,
): Promise<{ rank: number | null; mutants: number }> {
  const { start, end } = selectionOffsets(text, selectedLines(task, selection));
  const wanted = referenceReplacement(task, text, selection);
  const baseline = result.baseline ? { status: result.baseline.status, output: result.baseline.output.slice(-4000) } : undefined;
  const samples = createMutationProvider().generate({
    languageId: task.language, relativePath: task.file, fileText: text, start, end, samples: 1_000_000,
    baseline: Promise.resolve(baseline), ...(localised ? { localise: () => localised } : {}), signal: new AbortController().signal, logger: silentLogger,
  });
  let count = 0;
  let rank: number | null = null;
  for await (const sample of samples) {
    if (sample.kind !== 'candidate') continue;
    count++;
    if (rank === null && sample.text === wanted) rank = count;
  }
  return { rank, mutants: count };
}

/** The provider, keeping the ranking its request's fault localisation gave, so the reference's position is read in the same order. */
function recordingRanking(provider: CandidateProvider, keep: (ranking: Promise<SiteRanking | undefined>) => void): CandidateProvider {
  return {
    name: provider.name,
    generate: (request) => {
      const { localise } = request;
      return provider.generate(localise ? { ...request, localise: () => { const ranking = localise(); keep(ranking); return ranking; } } : request);
    },
  };
}

interface BenchContext {
  readonly backend: SandboxBackend;
  readonly scratch: string;
  readonly maxN: number;
  readonly parallel: number;
  readonly localisation: boolean;
}

/** One real request on a copy without the hidden tests, then every verified candidate run against them. */
async function runRequest(task: RepairTask, selection: SelectionKind, ctx: BenchContext): Promise<RequestOutcome> {
  const workspace = copyTask(task, ctx.scratch, { hidden: false });
  try {
    const text = readFileSync(join(workspace, task.file), 'utf8');
    const { start, end } = selectionOffsets(text, selectedLines(task, selection));
    let localised: Promise<SiteRanking | undefined> | undefined;
    const request: FixRequest = {
      workspace, relativePath: task.file, start, end, languageId: task.language, testCommand: visibleCommand(task),
      samples: ctx.maxN, testTimeoutMs: 60_000, totalTimeoutMs: 3_600_000, parallel: ctx.parallel, baselineCheck: true,
      confirmRuns: 2, stagedVerification: true, strengthCheck: 'off', faultLocalisation: ctx.localisation,
      isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 4096 },
      provider: recordingRanking(createMutationProvider(), (ranking) => (localised = ranking)), logger: silentLogger,
    };
    const t0 = performance.now();
    let firstVerifiedMs: number | null = null;
    const result = await runFix(request, (event) => {
      if (event.type === 'verdict' && event.candidate.verified && firstVerifiedMs === null) firstVerifiedMs = performance.now() - t0;
    });
    const durationMs = performance.now() - t0;
    // Duplicates share their original's text, so each distinct text runs the hidden tests once.
    const judged = new Map<string, Promise<boolean>>();
    const verified: VerifiedCandidate[] = [];
    for (const c of result.candidates.filter((x) => x.verified).sort((a, b) => a.index - b.index)) {
      const verdict = judged.get(c.replacement) ?? passesHidden(task, applyReplacement(text, start, end, c.replacement), ctx);
      judged.set(c.replacement, verdict);
      // A duplicate is listed as its original is.
      const shown = result.verified.indexOf(c.duplicateOf ?? c.index);
      verified.push({ index: c.index, correct: await verdict, shown, ...(c.label ? { label: c.label } : {}) });
    }
    const { rank, mutants } = await referencePosition(task, text, selection, result, localised);
    return {
      task: task.id, selection, language: task.language, multiToken: task.multiToken, samples: result.samples, mutants,
      referenceRank: rank, verified, durationMs, firstVerifiedMs, baseline: result.baseline?.status ?? 'none',
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Whether the file text passes the task's hidden tests, in a fresh copy that has them. */
async function passesHidden(task: RepairTask, fileText: string, ctx: BenchContext): Promise<boolean> {
  const copy = copyTask(task, ctx.scratch, { hidden: true });
  try {
    writeTaskFile(copy, task, fileText);
    return (await runInCopy(copy, hiddenCommand(task), ctx.backend)).status === 'pass';
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** "first correct #4, 1 wrong (#2)" */
function describeOutcome(o: RequestOutcome): string {
  const rank = firstCorrectRank(o, Infinity);
  const wrong = o.verified.filter((c) => !c.correct).map((c) => `#${c.index + 1}`);
  const reference = o.referenceRank === null ? 'never generated' : `#${o.referenceRank} of ${o.mutants}`;
  return `${o.samples} tried, ${rank ? `first correct #${rank}` : 'none correct'}${wrong.length ? `, wrong verified ${wrong.join(' ')}` : ''}; ` +
    `reference fix ${reference}; ${(o.durationMs / 1000).toFixed(1)} s`;
}

/** The commit measured and whether the generator's sources differ from it, so before/after numbers can be told apart. */
function codeState(corpus: string): string {
  const repo = dirname(dirname(dirname(corpus)));
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changed = git('status', '--porcelain', '--', 'src/core/mutation', 'src/core/localisation', 'src/core/providers/mutationProvider.ts', 'src/core/engine', 'bench/repair');
    return `${git('log', '-1', '--format=%h %s').slice(0, 80)}${changed ? ` + uncommitted changes to ${changed.split('\n').length} generator, engine or corpus file(s)` : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const corpus = findCorpus();
  const all = loadCorpus(corpus);
  const unknown = (options.tasks ?? []).filter((id) => !all.some((t) => t.id === id));
  if (unknown.length > 0) throw new Error(`no such task(s): ${unknown.join(', ')}`);
  const tasks = options.tasks ? all.filter((t) => options.tasks?.includes(t.id)) : all;
  const maxN = Math.max(...options.ns);
  const backend = await detectSandbox();
  const ctx: BenchContext = { backend, scratch: mkdtempSync(join(tmpdir(), 'vf-repair-bench-')), maxN, parallel: availableParallelism(), localisation: options.localisation };
  const multi = tasks.filter((t) => t.multiToken).length;
  const state = codeState(corpus);
  console.log(`repair bench: ${tasks.length} tasks (${tasks.filter((t) => t.language === 'javascript').length} JavaScript, ` +
    `${tasks.filter((t) => t.language === 'python').length} Python; ${multi} multi-token), mutation provider, one request of n = ${maxN} ` +
    `per task and selection (n = ${options.ns.join(', ')} are its first candidates), ${ctx.parallel} runs at once, fault localisation ${options.localisation ? 'on' : 'off'}, ` +
    `${describeProtections(backend.protections({ allowNetwork: false, memoryMB: 4096 }))}`);
  console.log(`code: ${state}`);
  const outcomes: RequestOutcome[] = [];
  const started = performance.now();
  try {
    let done = 0;
    const total = tasks.length * options.kinds.length;
    for (const task of tasks) {
      for (const selection of options.kinds) {
        const outcome = await runRequest(task, selection, ctx);
        outcomes.push(outcome);
        console.log(`[${String(++done).padStart(String(total).length)}/${total}] ${task.id} ${selection}: ${describeOutcome(outcome)}`);
      }
    }
  } finally {
    rmSync(ctx.scratch, { recursive: true, force: true });
  }
  const rows = summarize(outcomes, options.ns, options.kinds);
  console.log(`\n${formatTable(rows)}`);
  console.log('fixed: a verified candidate among the first n passes the hidden tests; wrong fix verified: one fails them; ' +
    'wrong fix first: the top of the list a user is shown fails them (alone: with no other fix listed, so nothing ' +
    'says the tests do not decide); median rank: of the first correct candidate, over the tasks fixed within n');
  for (const line of formatTimes(outcomes, options.kinds, maxN)) console.log(line);
  console.log(`whole bench: ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ code: state, ns: options.ns, kinds: options.kinds, summary: rows, outcomes }, null, 2) + '\n');
    console.log(`results: ${options.json}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
