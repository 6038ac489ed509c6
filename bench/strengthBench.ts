// Strength-check share benchmark: one request with several equivalent verified fixes, the strength check's share of
// the request's wall time with sharing off and no budget (the design before) against the defaults, in the same run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFix } from '../src/core/engine/runFix';
import type { FixRequest, FixResult } from '../src/core/contract/fixRequest';
import { createFileProvider } from '../src/core/providers/fileProvider';

const SOURCE = 'function atLeast(quantity, threshold) {\n  return quantity > threshold;\n}\nmodule.exports = { atLeast };\n';
const HEADER = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { atLeast } = require('../src/limit.js');\n";
// Passing files the full run starts and the failing tests' run leaves out, each with a little work of its own.
const OTHER_FILES = 8;

/** Five fixes of one behaviour (three spellings, one the same code with other spacing) and five wrong answers. */
const CANDIDATES = [
  '  return quantity >= threshold;',
  '  return threshold <= quantity;',
  '  return !(quantity < threshold);',
  '  return quantity  >=  threshold ;',
  '  return quantity >= threshold === true;',
  '  return quantity < threshold;',
  '  return quantity === threshold;',
  '  return quantity > threshold + 1;',
  '  return threshold > quantity;',
  '  return false;',
];

function writeProject(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'strength-bench', private: true, scripts: { test: 'node --test' } }, null, 2));
  writeFileSync(join(dir, 'src', 'limit.js'), SOURCE);
  writeFileSync(join(dir, 'test', 'limit.test.js'), HEADER + [
    "test('the threshold itself counts', () => assert.strictEqual(atLeast(5, 5), true));",
    "test('above the threshold', () => assert.strictEqual(atLeast(6, 5), true));",
    "test('below the threshold', () => assert.strictEqual(atLeast(4, 5), false));",
    '',
  ].join('\n'));
  for (let i = 0; i < OTHER_FILES; i++) {
    const work = `let h = 0; for (let k = 0; k < 3e7; k++) h = (h * 31 + k) | 0;`;
    writeFileSync(join(dir, 'test', `other${i}.test.js`), `${HEADER}test('neighbour ${i}', () => { ${work} assert.strictEqual(atLeast(${i + 10}, ${i}), true); });\n`);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.invalid', '-c', 'user.name=bench', 'commit', '-qm', 'seeded bug');
}

function request(dir: string, overrides: Partial<FixRequest>): FixRequest {
  const start = SOURCE.indexOf('  return');
  return {
    workspace: dir, relativePath: 'src/limit.js', start, end: SOURCE.indexOf('\n', start), samples: CANDIDATES.length, testTimeoutMs: 120_000, totalTimeoutMs: 1_800_000,
    parallel: Math.min(2, availableParallelism()), baselineCheck: true, confirmRuns: 2, strengthCheck: 'quick', behaviourCheck: 'quick',
    isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 }, provider: createFileProvider(CANDIDATES), ...overrides,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function line(name: string, result: FixResult): string {
  const cost = result.strengthCost;
  if (!cost) return `  ${name}: no strength check ran (${result.verified.length} verified)`;
  const share = (100 * cost.durationMs) / result.durationMs;
  const cut = result.strengthCutShort ? `; cut short for ${result.strengthCutShort.unchecked.length} fix(es) (${result.strengthCutShort.kind})` : '';
  return `  ${name}: strength check ${share.toFixed(0)}% of the request wall (${cost.runs} runs, ${s(cost.durationMs)} of ${s(result.durationMs)}; ` +
    `${cost.sharedFixes} of ${result.verified.length} verified fixes shared an equivalent fix's variants${cut})`;
}

/** `npm run bench -- strength` */
export async function benchStrength(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vf-strength-bench-'));
  try {
    writeProject(dir);
    const load = loadavg()[0].toFixed(1);
    // Before: every verified fix its own variants, no budget; after: the defaults (sharing, a third of the request).
    const before = await runFix(request(dir, { strengthSharing: false, strengthBudget: 0 }));
    const after = await runFix(request(dir, {}));
    const none = await runFix(request(dir, { strengthCheck: 'off' }));
    console.log(`strength share: ${CANDIDATES.length} candidates, ${before.verified.length} verified fixes of one behaviour, ${OTHER_FILES + 1} node --test files (load ${load} at the start)`);
    console.log(line('before (sharing off, no budget)', before));
    console.log(line('after (sharing on, budget 33%)', after));
    console.log(`  request wall: before ${s(before.durationMs)}, after ${s(after.durationMs)}, without the check ${s(none.durationMs)}: after ÷ before ${(after.durationMs / before.durationMs).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
