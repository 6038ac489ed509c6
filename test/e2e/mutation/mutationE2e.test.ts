// `verified-fix fix --provider mutation` on small buggy programs: the best verified candidate is the real fix.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { wasmFiles } from '../../../src/core/mutation/grammars';
import { runCli } from '../../unit/helpers/cli';
import { fixturesDir, repoRoot } from '../../unit/helpers/paths';

const unittest = 'python3 -m unittest discover -s tests';

/**
 * The generator yields the likeliest mutants first, the same ones every time: 20 hold each real fix (the 15th at the
 * latest) and py-off-by-one's second passing mutant, which the ranking must put below the real fix. js-boolean tries 30
 * so that its second passing mutant (the 26th) is among them too.
 */
const SAMPLES = 20;

/** One program under test/fixtures/buggy/: the lines selected, and the text that is wrong and what it should be. */
interface BuggyProgram {
  readonly name: string;
  readonly file: string;
  readonly lines: readonly [number, number];
  readonly bug: string;
  readonly fix: string;
  readonly test?: string;
  /** Candidates to try when the default is not enough (see SAMPLES). */
  readonly samples?: number;
}

const programs: readonly BuggyProgram[] = [
  { name: 'js-operator', file: 'src/tax.js', lines: [2, 4], bug: 'net - net', fix: 'net + net' },
  { name: 'js-off-by-one', file: 'src/list.js', lines: [2, 4], bug: 'items[items.length]', fix: 'items[items.length - 1]' },
  { name: 'js-boolean', file: 'src/vote.js', lines: [2, 4], bug: '>= 18 || registered', fix: '>= 18 && registered', samples: 30 },
  { name: 'js-swapped-args', file: 'src/percent.js', lines: [6, 8], bug: 'divide(whole, part)', fix: 'divide(part, whole)' },
  { name: 'js-wrong-variable', file: 'src/maxOf.js', lines: [2, 8], bug: 'best = values;', fix: 'best = value;' },
  { name: 'py-operator', file: 'temperature.py', lines: [4, 5], bug: '/ 5 - 32', fix: '/ 5 + 32', test: unittest },
  { name: 'py-off-by-one', file: 'series.py', lines: [4, 9], bug: 'range(n)', fix: 'range(n + 1)', test: unittest },
  { name: 'py-boolean', file: 'ranges.py', lines: [4, 6], bug: 'low <= x or x', fix: 'low <= x and x', test: unittest },
  { name: 'py-swapped-args', file: 'powers.py', lines: [8, 9], bug: 'power(3, x)', fix: 'power(x, 3)', test: unittest },
  { name: 'py-wrong-variable', file: 'cart.py', lines: [4, 8], bug: '(1 + price)', fix: '(1 + tax_rate)', test: unittest },
];

interface FixJson {
  readonly candidates: ReadonlyArray<{ readonly index: number; readonly status: string; readonly replacement: string }>;
  readonly verified: readonly number[];
}

/** The selected lines as the engine replaces them, with the bug fixed. */
function expectedReplacement(program: BuggyProgram, workspace: string): string {
  const text = readFileSync(join(workspace, program.file), 'utf8');
  const selected = text.split('\n').slice(program.lines[0] - 1, program.lines[1]).join('\n');
  assert.ok(selected.includes(program.bug), `${program.name}: the bug is not in lines ${program.lines.join('-')}`);
  return selected.replace(program.bug, program.fix);
}

describe('verified-fix fix --provider mutation', () => {
  it('ships the parser files next to the built CLI', () => {
    for (const file of wasmFiles) assert.ok(existsSync(join(repoRoot, 'dist', 'grammars', file)), `dist/grammars/${file}`);
  });

  // Each program runs its tests once per candidate, in parallel; a few programs at a time keeps the machine responsive.
  describe('finds the real fix of each buggy program', { concurrency: 3 }, () => {
    for (const program of programs) {
      it(program.name, async () => {
        const workspace = join(fixturesDir, 'buggy', program.name);
        const args = ['fix', '--workspace', workspace, '--file', program.file, '--lines', program.lines.join('-')];
        // The strength check has tests of its own; here it would only double the runs.
        args.push('--provider', 'mutation', '--samples', String(program.samples ?? SAMPLES), '--parallel', '4', '--strength', 'off', '--json');
        if (program.test) args.push('--test', program.test);
        const r = await runCli(args);
        assert.equal(r.exitCode, 0, `exit ${r.exitCode}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`);
        const result = JSON.parse(r.stdout) as FixJson;
        assert.ok(result.candidates.some((c) => c.status === 'pass'), 'no candidate passed');
        const best = result.candidates.find((c) => c.index === result.verified[0]);
        assert.equal(best?.replacement, expectedReplacement(program, workspace));
      });
    }
  });
});
