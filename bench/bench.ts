// `npm run bench`: prints timings as ratios against a baseline measured in the same run. Never asserts.
import { computeSessionStats } from '../src/core/statistics/sessionStats';
import type { SampleOutcome } from '../src/core/statistics/sessionStats';
import { generateMutants } from '../src/core/mutation/generator';
import { parserFor } from '../src/core/mutation/grammars';
import { benchCost } from './costBench';
import { benchEngine } from './engineBench';
import { benchStaged } from './stagedBench';
import { benchStageOne } from './stageOneBench';
import { benchStrength } from './strengthBench';
import { benchReach } from './reachBench';

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function benchStatistics(): void {
  const tasks = Array.from({ length: 500 }, (_, t) => ({
    taskId: `t${t}`,
    outcomes: Array.from({ length: 20 }, (_, i): SampleOutcome => (i < t % 21 ? 'pass' : 'fail')),
  }));
  // Baseline: one pass over every sample (the least any statistic must do).
  const baseline = time(() => {
    for (let r = 0; r < 2000; r++) for (const t of tasks) t.outcomes.filter((o) => o === 'pass');
  });
  const stats = time(() => computeSessionStats(tasks, [1, 5, 10]));
  console.log(`statistics: 500 tasks × 20 samples, k=1,5,10 with 2,000 bootstrap resamples: ${stats.toFixed(1)} ms ` +
    `(${(stats / baseline).toFixed(2)}× a 2,000-fold scan of the samples, ${baseline.toFixed(1)} ms)`);
}


/** A 200-line JavaScript file of small loop-and-branch functions, the kind of code the mutation provider repairs. */
function syntheticSource(): string {
  const fn = (i: number) => [
    `function score${i}(items, limit, weight) {`,
    '  let total = 0; // running sum, never below 0',
    '  for (let i = 0; i < items.length; i++) {',
    `    if (items[i].value > limit && items[i].tag !== "skip-${i}") total += items[i].value * weight;`,
    '    else total = Math.max(total - 1, 0);',
    '  }',
    '  return total >= limit ? clamp(total, limit) : total % 2;',
    '}',
    '',
    '',
  ];
  return Array.from({ length: 20 }, (_, i) => fn(i)).flat().join('\n');
}

async function benchMutation(): Promise<void> {
  const fileText = syntheticSource();
  const lines = fileText.split('\n');
  const start = lines.slice(0, 80).join('\n').length + 1; // lines 81–120: a 40-line selection
  const end = start + lines.slice(80, 120).join('\n').length;
  const input = { languageId: 'javascript', fileText, start, end };
  const coldStart = process.hrtime.bigint();
  await generateMutants(input); // loads the WebAssembly runtime and the grammar
  const cold = Number(process.hrtime.bigint() - coldStart) / 1e6;
  const parser = await parserFor('javascript');
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  // Baseline: one plain parse of the same file (what any syntax-aware tool pays at least once).
  const parses = Array.from({ length: 21 }, () => time(() => parser.parse(fileText)?.delete()));
  const runs: number[] = [];
  let last = await generateMutants(input);
  for (let r = 0; r < 11; r++) {
    const t0 = process.hrtime.bigint();
    last = await generateMutants(input);
    runs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const generation = median(runs);
  const parse = median(parses);
  const { stats } = last;
  console.log(`mutation: ${stats.candidates} candidates (${stats.generated} edits, ${stats.unparsable} dropped as unparsable, ` +
    `${stats.duplicates} duplicates) for a 40-line selection of a ${lines.length}-line file: ${generation.toFixed(1)} ms ` +
    `(${(generation / parse).toFixed(1)}× one plain parse of the file, ${parse.toFixed(2)} ms; first call with parser start-up ${cold.toFixed(0)} ms)`);
}

/** `npm run bench -- cost` runs one part; no argument runs them all. */
const PARTS: Record<string, () => Promise<void> | void> = { statistics: benchStatistics, mutation: benchMutation, engine: benchEngine, staged: benchStaged, cost: benchCost, stage1: benchStageOne, strength: benchStrength, reach: benchReach };

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !(name in PARTS));
  if (unknown.length > 0) throw new Error(`unknown bench part(s): ${unknown.join(', ')}; the parts are ${Object.keys(PARTS).join(', ')}`);
  for (const [name, part] of Object.entries(PARTS)) if (only.length === 0 || only.includes(name)) await part();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
