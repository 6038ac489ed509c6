// Reads which lines of one file a failing test run's output points at (stack traces, tracebacks, compiler errors).

/**
 * Line references in the output: `at add (/x/src/math.js:12:5)`, `at file:///x/src/math.js:12:5`,
 * `File "/x/src/calc.py", line 7, in add`, pytest's `src/calc.py:7: in add`, tsc's `src/a.ts(3,9)`.
 * Stack-trace text is free-form output, not code, so a pattern is the right tool here.
 */
const references: readonly RegExp[] = [
  /File "([^"\n]+)", line (\d+)/g,
  /((?:file:\/\/)?[^\s()'"`[\]]+?):(\d+)(?::\d+)?(?=[\s):,]|$)/gm,
  /([^\s()'"`[\]]+?)\((\d+),\d+\)/g,
];

/** Normalises a path for comparison: forward slashes, no `file://`, no leading `./`. */
function normalise(path: string): string {
  let p = path.replace(/\\/g, '/');
  if (p.startsWith('file://')) p = decodeURIComponent(p.slice('file://'.length));
  return p.replace(/^\.\//, '');
}

/**
 * The 1-based lines of `relativePath` that `output` names, in order of first mention. Tests run in temporary
 * copies of the workspace, so an absolute path matches when it ends with `/<relativePath>`.
 */
export function failureLines(output: string, relativePath: string): number[] {
  const wanted = normalise(relativePath);
  const lines: number[] = [];
  for (const pattern of references) {
    for (const match of output.matchAll(pattern)) {
      const path = normalise(match[1]);
      const line = Number(match[2]);
      const names = path === wanted || path.endsWith('/' + wanted);
      if (names && line > 0 && !lines.includes(line)) lines.push(line);
    }
  }
  return lines;
}
