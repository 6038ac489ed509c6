// One wording of what per-test results proved, shared by the CLI and the editor: "fixes 2 failing tests · 148 others still pass".

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * "fixes 2 failing tests · 148 others still pass", from how many baseline failures a run fixed and how many tests
 * passed in it; the second half is left out when nothing else ran.
 */
export function provenByTests(fixed: number, passed: number): string {
  const others = passed - fixed;
  const fixes = `fixes ${plural(fixed, 'failing test', 'failing tests')}`;
  return others > 0 ? `${fixes} · ${plural(others, 'other still passes', 'others still pass')}` : fixes;
}
