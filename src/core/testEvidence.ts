// One wording of what per-test results proved, shared by the CLI and the editor: "fixes 2 failing tests · 148 others still pass".
import type { TestEvidence } from './fixRequest';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "fixes 2 failing tests · 148 others still pass"; the second half is left out when nothing else ran. */
export function provenByTests(tests: TestEvidence): string {
  const others = tests.passed - tests.fixed.length;
  const fixed = `fixes ${plural(tests.fixed.length, 'failing test', 'failing tests')}`;
  return others > 0 ? `${fixed} · ${plural(others, 'other still passes', 'others still pass')}` : fixed;
}
