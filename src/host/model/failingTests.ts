// Which tests a run's output says failed, and where a test file declares them: for the "this failing test" Quick Fix
// and code lens (vscode-free, so unit-tested with plain text).

/** Names printed for failed tests by the runners the engine reads (one pattern per reporter, first group the name). */
const FAILED_PATTERNS: readonly RegExp[] = [
  /^\s*not ok \d+ - (.+?)(?:\s+#\s.*)?\s*$/gm, // TAP (node --test's default off a TTY, mocha's tap reporter)
  /^\s*✖ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?\s*$/gm, // node --test's spec reporter
  /^\s*\d+\) (.+?)\s*:?\s*$/gm, // mocha's spec reporter ("  1) clamp keeps the upper bound")
  /^\s*● (.+?)\s*$/gm, // jest ("● range › clamp keeps the upper bound")
  /^\s*(?:×|FAIL) .*?(?:>|›) (.+?)(?: \d+m?s)?\s*$/gm, // vitest
  /^FAILED [^\s:]+::(\S+?)(?: - .*)?$/gm, // pytest -rf / the short summary
];

/** Lines that look like a failed test but are a summary or a file (`✖ failing tests:`, `● Test suite failed to run`). */
const NOT_A_TEST = /^(failing tests:?|tests? suite failed to run|\d+ (failing|failed|passing)|.+\.(test|spec)\.[cm]?[jt]sx?)$/i;

/** The innermost name of a test as reporters nest it (`suite › name`, `suite > name`): what its declaration says. */
export function leafName(name: string): string {
  const parts = name.split(/ › | > /);
  return parts[parts.length - 1].trim();
}

/** The failed tests an output names, innermost names, each once, in order of first mention (ANSI already stripped). */
export function failingTestNames(output: string): string[] {
  const found: Array<{ at: number; name: string }> = [];
  for (const pattern of FAILED_PATTERNS) {
    for (const match of output.matchAll(pattern)) {
      const name = leafName(match[1]);
      if (name && !NOT_A_TEST.test(name)) found.push({ at: match.index ?? 0, name });
    }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.name))];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The 0-based line where `text` (a test file) declares the test `name`: `test('name'`, `it("name"`, `describe`'s
 * cousins with template strings too, or `def name(` for pytest. Undefined when the file does not declare it.
 */
export function testDeclarationLine(text: string, name: string): number | undefined {
  const quoted = new RegExp(`\\b(?:test|it|specify)(?:\\.\\w+)*\\s*\\(\\s*(['"\`])${escape(name)}\\1`);
  const python = /^\w+$/.test(name) ? new RegExp(`^\\s*(?:async\\s+)?def\\s+${escape(name)}\\s*\\(`) : undefined;
  const lines = text.split('\n');
  const index = lines.findIndex((line) => quoted.test(line) || (python?.test(line) ?? false));
  return index >= 0 ? index : undefined;
}

/** What VS Code 1.100 hands a Testing view message command: a test item's id, label and uri (no stack frames). */
export interface TestItemLike {
  readonly id?: unknown;
  readonly label?: unknown;
}

/**
 * The name to run and localise from for a test item: its label (what runners print), else the last part of its id.
 * Undefined when the item has neither.
 */
export function testNameOfItem(item: TestItemLike | undefined): string | undefined {
  const label = typeof item?.label === 'string' ? item.label.trim() : '';
  if (label) return label;
  const id = typeof item?.id === 'string' ? item.id : '';
  const last = id.split(/\/|::|#| > /).pop()?.trim();
  return last || undefined;
}
