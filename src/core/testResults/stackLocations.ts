// Reads file-and-line references out of test output: stack frames, Python tracebacks, compiler errors.

/** A line of a file that some output names, as written there (absolute, relative or a file:// URL). */
export interface OutputLocation {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
}

/**
 * `at add (/x/src/math.js:12:5)`, `at file:///x/src/math.js:12:5`, `File "/x/src/calc.py", line 7, in add`,
 * pytest's `src/calc.py:7: in add`, tsc's `src/a.ts(3,9)`. Stack-trace text is free-form output, not code, so a
 * pattern is the right tool here.
 */
const REFERENCES: readonly RegExp[] = [
  /File "([^"\n]+)", line (\d+)/g,
  /((?:file:\/\/)?[^\s()'"`[\]]+?):(\d+)(?::\d+)?(?=[\s):,]|$)/gm,
  /([^\s()'"`[\]]+?)\((\d+),\d+\)/g,
];

/** Forward slashes, no `file://` (decoded), no leading `./`: how two references to one file compare equal. */
export function normalisePath(path: string): string {
  let p = path.replace(/\\/g, '/');
  if (p.startsWith('file://')) {
    p = p.slice('file://'.length);
    try {
      p = decodeURIComponent(p);
    } catch {
      // A malformed escape (`%zz`) in free-form output: compare the path as written.
    }
  }
  return p.replace(/^\.\//, '');
}

/**
 * Whether a path some output names (absolute, relative or a file:// URL) is the workspace file `relativePath`:
 * tests run in temporary copies of the workspace, so an absolute path matches when it ends with `/<relativePath>`.
 */
export function isWorkspaceFile(named: string, relativePath: string): boolean {
  const path = normalisePath(named);
  const wanted = normalisePath(relativePath);
  return path === wanted || path.endsWith(`/${wanted}`);
}

/** Every file-and-line reference in `output`, normalised, in order of first mention, without repeats. */
export function outputLocations(output: string): OutputLocation[] {
  // Every pattern's matches, then one pass in the order of the text: a trace mixes the forms.
  const matches = REFERENCES.flatMap((pattern) => [...output.matchAll(pattern)]).sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const seen = new Set<string>();
  const found: OutputLocation[] = [];
  for (const match of matches) {
    const path = normalisePath(match[1]);
    const line = Number(match[2]);
    const key = `${path}:${line}`;
    if (line > 0 && !/^(node:|internal\/)/.test(path) && !seen.has(key)) {
      seen.add(key);
      found.push({ path, line });
    }
  }
  return found;
}
