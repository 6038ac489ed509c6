// `npm run bench:projects [-- [--prepare] [--default-only] NAME…]`: the real CLI on real projects at pinned releases, three seeded bugs each;
// every ratio is against one bare run of the same suite measured right before the request. Never asserts.
import { loadavg } from 'node:os';
import { PROJECTS } from './projects/catalog';
import type { BenchProject } from './projects/catalog';
import { bareSuite, measureRequest, median } from './projects/request';
import type { RequestMeasure } from './projects/request';
import { prepareProject, seedBug, userCommand } from './projects/prepare';
import { chainFloorMs } from './projects/chain';

const s = (ms: number | undefined) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
const x = (ms: number | undefined, suite: number) => (ms === undefined ? '–' : `${(ms / suite).toFixed(1)}×`);
const percent = (share: number | undefined) => (share === undefined ? '–' : `${Math.round(share * 100)}%`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

const CANDIDATES = 10;

/** The least a request can cost (#27): the baseline, every candidate's failing tests, and the top fix's full run. */
function floorOf(m: RequestMeasure): number | undefined {
  return m.baselineMs !== undefined && m.stageOneMs !== undefined ? m.baselineMs + CANDIDATES * m.stageOneMs + m.suiteMs : undefined;
}

/** Candidates whose verdict (verified or not) differs between two requests on the same bug. */
function disagreements(a: RequestMeasure, b: RequestMeasure | undefined): number {
  if (!b) return 0;
  return a.verifiedByIndex.filter((v, i) => b.verifiedByIndex[i] !== undefined && b.verifiedByIndex[i] !== v).length;
}

/** The default request, and the same bug under --full-suite and --no-staged (absent with --default-only). */
interface Modes {
  readonly main: RequestMeasure;
  readonly fullSuite?: RequestMeasure;
  readonly noStaged?: RequestMeasure;
}

function row(project: BenchProject, bug: number, { main: m, fullSuite, noStaged }: Modes): string {
  const engaged = m.perTestEngaged ? 'yes' : 'no';
  const stage = m.candidates ? `${m.stageOneOnly}/${m.candidates}` : '–';
  const excerpts = m.failed ? `${m.excerptsNamingTest}/${m.failed}` : '–';
  const floor = floorOf(m);
  const share = floor === undefined ? undefined : Math.max(0, m.wallMs - floor) / m.wallMs;
  const differ = fullSuite || noStaged ? String(disagreements(m, fullSuite) + disagreements(m, noStaged)) : '–';
  const chain = m.chain ? `${x(m.chain.startupMs, m.suiteMs)} | ${x(m.chain.stageOneProcessMs, m.suiteMs)} | ${x(chainFloorMs(m.chain, m.suiteMs), m.suiteMs)}` : '– | – | –';
  return `| ${project.name} | ${project.runner} | ${bug + 1} | ${engaged} | ${s(m.suiteMs)} | ${s(m.wallMs)} | ${x(m.wallMs, m.suiteMs)} | ${chain} | ${s(floor)} | ${x(m.wallMs, floor ?? NaN)} | ${percent(share)} | ` +
    `${fullSuite ? x(fullSuite.wallMs, fullSuite.suiteMs) : '–'} | ${noStaged ? x(noStaged.wallMs, noStaged.suiteMs) : '–'} | ${differ} | ${x(m.listedMs, m.suiteMs)} | ` +
    `${x(m.firstVerifiedMs, m.suiteMs)} | ${stage} | ${m.timeouts} | ${excerpts} | ${m.verified ? `yes (${m.verified})` : 'no'} | ${percent(m.strengthShare)} |`;
}

const HEADER = '| project | runner | bug | per-test | suite | request | ÷ suite | start-up ÷ suite | stage-1 process ÷ suite | chain ÷ suite | floor | ÷ floor | engine share | --full-suite ÷ suite | --no-staged ÷ suite | verdicts differ | list ÷ suite | 1st verified ÷ suite | stage 1 only | timeouts | excerpt names a test | verified | strength share |\n' +
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';

interface Ready {
  readonly project: BenchProject;
  readonly dir: string;
  readonly command: string;
}

/** Builds (first run) and checks a project: its unmodified suite must pass, else it is left out and the log says why. */
async function ready(project: BenchProject): Promise<Ready | undefined> {
  let dir: string;
  try {
    dir = prepareProject(project);
  } catch (error) {
    console.log(`${project.name}: not measured: ${(error as Error).message}`);
    return undefined;
  }
  const command = userCommand(project);
  const clean = await bareSuite(dir, command); // also warms the page cache and the runner's own caches
  if (clean.exit !== 0) {
    console.log(`${project.name}: not measured: its unmodified suite fails (\`${command}\` exit ${clean.exit})`);
    return undefined;
  }
  console.log(`${project.name} (${project.source.spec}, ${project.runner}, \`${command}\` → \`${project.test}\`; ${project.note}): unmodified suite ${s(clean.ms)}`);
  return { project, dir, command };
}

/** Restores the seeded file if the bench is interrupted mid-request (the cache copy stays as published). */
let pendingRestore: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    pendingRestore?.();
    process.exit(130);
  });
}

interface Totals {
  readonly rows: string[];
  readonly ratios: number[];
  readonly shares: number[];
  /** (request − n × the failing tests' time) ÷ one suite: #27's measure, target ≤ 1.5. */
  readonly aboveStageOne: number[];
  /** Each request's chain (chain.ts) ÷ one suite, its start-up alone, and the request ÷ its chain. */
  readonly chains: number[];
  readonly startups: number[];
  readonly overChain: number[];
  disagreements: number;
}

async function benchBug({ project, dir, command }: Ready, i: number, compare: boolean, totals: Totals): Promise<void> {
  const bug = project.bugs[i];
  const { line, restore } = seedBug(dir, bug);
  pendingRestore = restore;
  try {
    const m = await measureRequest(dir, command, bug.file, line);
    console.log(`  ${project.name} bug ${i + 1} (${bug.file}:${line}, ${bug.what}; load ${load()}): ${m.perTest}` +
      (m.suiteExit === 0 ? ' — NOTE: the seeded suite passed' : '') + (m.note ? ` — ${m.note}` : ''));
    const modes: Modes = compare
      ? { main: m, fullSuite: await measureRequest(dir, command, bug.file, line, ['--full-suite']), noStaged: await measureRequest(dir, command, bug.file, line, ['--no-staged']) }
      : { main: m };
    const { rows, ratios, shares } = totals;
    rows.push(row(project, i, modes));
    ratios.push(m.wallMs / m.suiteMs);
    if (m.stageOneMs !== undefined) totals.aboveStageOne.push((m.wallMs - CANDIDATES * m.stageOneMs) / m.suiteMs);
    if (m.chain) {
      const chainMs = chainFloorMs(m.chain, m.suiteMs);
      totals.chains.push(chainMs / m.suiteMs);
      totals.startups.push(m.chain.startupMs / m.suiteMs);
      totals.overChain.push(m.wallMs / chainMs);
    }
    totals.disagreements += disagreements(m, modes.fullSuite) + disagreements(m, modes.noStaged);
    if (m.strengthShare !== undefined) shares.push(m.strengthShare);
    console.log(`  ${rows[rows.length - 1]}`);
  } finally {
    restore();
    pendingRestore = undefined;
  }
}

async function main(): Promise<void> {
  const prepareOnly = process.argv.includes('--prepare');
  // --full-suite and --no-staged beside every request triple the bench; --default-only leaves them out.
  const compare = !process.argv.includes('--default-only');
  const names = process.argv.slice(2).filter((a) => a !== '--prepare' && a !== '--default-only');
  const unknown = names.filter((n) => !PROJECTS.some((p) => p.name === n));
  if (unknown.length) {
    console.error(`unknown project(s): ${unknown.join(', ')}; the bench has: ${PROJECTS.map((p) => p.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const chosen = names.length ? PROJECTS.filter((p) => names.includes(p.name)) : PROJECTS;
  if (prepareOnly) {
    // Fetch and install only (what a first run spends minutes on), so that the measured run starts warm.
    for (const project of chosen) {
      try {
        console.log(`${project.name}: ready in ${prepareProject(project)}`);
      } catch (error) {
        console.log(`${project.name}: ${(error as Error).message}`);
      }
    }
    return;
  }
  console.log(`real-projects bench: ${chosen.length} project(s), 3 seeded bugs each, 10 offline candidates per request (--behaviour off); load ${load()}`);
  const t0 = performance.now();
  const totals: Totals = { rows: [], ratios: [], shares: [], aboveStageOne: [], chains: [], startups: [], overChain: [], disagreements: 0 };
  const { rows, ratios, shares } = totals;
  const projects: Ready[] = [];
  for (const project of chosen) {
    const one = await ready(project);
    if (one) projects.push(one);
  }
  // Bug 1 of every project, then bug 2 of each…: a bench cut short still has every runner in its table.
  for (let i = 0; i < 3; i++) for (const one of projects) await benchBug(one, i, compare, totals);
  console.log(`\n${HEADER}\n${rows.join('\n')}`);
  console.log(`\nmedian request ÷ one bare suite over ${ratios.length} request(s): ${median(ratios).toFixed(1)}× (target ≤ 3×); ` +
    `median (request − ${CANDIDATES} × the failing tests' run) ÷ one suite over ${totals.aboveStageOne.length}: ${median(totals.aboveStageOne).toFixed(2)}× ` +
    "(#27's target ≤ 1.5×; each candidate's run counts in full, its process's start-up too, as a run of its own would, and the runs share the slots, so shared stage 1 takes it below 0); " +
    `verdicts that differ from --full-suite / --no-staged: ${compare ? `${totals.disagreements} (must be 0)` : 'not compared (--default-only)'}; median strength share ` +
    `${percent(shares.length ? median(shares) : undefined)} over ${shares.length}; bench took ${s(performance.now() - t0)}; load at the end ${load()}`);
  const { chains, startups, overChain } = totals;
  if (!chains.length) return;
  console.log(`the chain (the CLI's start-up, the baseline, one stage-1 process, one suite for a full run that followed stage 1: what no number of cores ` +
    `takes a request below) ÷ one suite: median ${median(chains).toFixed(1)}× over ${chains.length}, above 3× in ${chains.filter((c) => c > 3).length}; ` +
    `start-up alone: median ${median(startups).toFixed(2)}×; request ÷ its chain: median ${median(overChain).toFixed(2)}×`);
}

void main();
