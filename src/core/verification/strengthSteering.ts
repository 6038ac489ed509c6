// Candidates that could steer the strength check (read their own source, or change code outside the selected function's body) are marked "review required" and never ranked by strength.

/**
 * Ways code reads its own source text or location: a candidate that hashes its own file can pass only while its
 * text is unchanged, so every variant "is caught" and the check says the tests pin it. Counted in the candidate's
 * replacement against the selection it replaces: a name the user's own code already used is not the candidate's.
 */
const SELF_READING: ReadonlyArray<{ readonly what: string; readonly pattern: RegExp }> = [
  { what: '__filename', pattern: /\b__filename\b/g },
  { what: '__dirname', pattern: /\b__dirname\b/g },
  { what: 'import.meta', pattern: /\bimport\s*\.\s*meta\b/g },
  { what: 'module.filename', pattern: /\b(?:module|require\s*\.\s*main)\s*\.\s*(?:filename|path)\b/g },
  { what: 'a stack trace', pattern: /\.\s*stack\b|\bcaptureStackTrace\b|\bprepareStackTrace\b/g },
  { what: 'reading a file', pattern: /\b(?:readFileSync|readFile|createReadStream|openSync|readSync)\b/g },
  { what: '__file__', pattern: /\b__file__\b/g },
  { what: 'inspect', pattern: /\binspect\b|\bgetsource\b|\blinecache\b|\b_getframe\b|\bcurrentframe\b|\bco_filename\b|\bf_code\b|\b__code__\b|\bco_code\b|__loader__|__spec__|__cached__/g },
  { what: 'opening a file', pattern: /\bopen\s*\(|\bPath\s*\(|\bpathlib\b|\bio\s*\.\s*open\b/g },
];

const count = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length;

/** Text without string literals and comments, so a `}` in a string or `# }` is not a bracket. */
function code(text: string, languageId: string): string {
  const hash = languageId === 'python' || languageId === 'ruby' || languageId === 'shellscript';
  const comment = hash ? /#[^\n]*/g : /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  return text.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g, '""').replace(comment, '');
}

/** The lowest bracket depth `text` reaches, and where it ends, starting from 0. */
function depths(text: string): { min: number; end: number } {
  let depth = 0;
  let min = 0;
  for (const c of text) {
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') min = Math.min(min, --depth);
  }
  return { min, end: depth };
}

/** The smallest indentation of a non-blank line of `text` (its first line counted from `column`). */
function minIndent(text: string, column: number): number {
  const lines = text.split('\n');
  const widths = lines.map((line, i) => (line.trim() === '' ? Infinity : (i === 0 ? column : 0) + (/^[ \t]*/.exec(line)?.[0].length ?? 0)));
  return Math.min(...widths);
}

/** The lines of `text` at indentation 0 (a Python file's top level), spaces collapsed. */
function topLines(text: string, column: number): string {
  return text
    .split('\n')
    .filter((line, i) => line.trim() !== '' && (i === 0 ? column : 0) + (/^[ \t]*/.exec(line)?.[0].length ?? 0) === 0)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n');
}

export interface SteeringInput {
  readonly languageId: string;
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/**
 * Why a verified candidate's strength cannot be trusted, or undefined: it reads its own source or location (new
 * uses of `__filename`, `import.meta`, `__file__`, `inspect`, reading files, stack traces), or it changes code
 * outside the selected function's body: it closes a bracket the selection did not open, dedents past the selection
 * (Python), or changes a line at the file's top level (module-level code runs when the file is loaded).
 */
export function steeringReason(input: SteeringInput): string | undefined {
  const { languageId, originalText, start, end, replacement } = input;
  const selection = originalText.slice(start, end);
  const reads = SELF_READING.filter(({ pattern }) => count(replacement, pattern) > count(selection, pattern)).map(({ what }) => what);
  if (reads.length > 0) return `it reads its own source or files (${reads.join(', ')}), so the tests' verdict on its variants may be steered`;
  const column = start - (originalText.lastIndexOf('\n', start - 1) + 1);
  if (languageId === 'python') {
    const floor = minIndent(selection, column);
    if (minIndent(replacement, column) < floor) return 'it changes code outside the selected block (a line indented less than the selection)';
    if (floor === 0 && topLines(code(selection, languageId), column) !== topLines(code(replacement, languageId), column)) {
      return 'it changes top-level code of the file (which runs when the file is loaded)';
    }
    return undefined;
  }
  const before = depths(code(selection, languageId));
  const after = depths(code(replacement, languageId));
  if (after.min < before.min || after.end !== before.end) return 'it changes code outside the selected function\'s body (its brackets close or open a block the selection does not)';
  const outer = depths(code(originalText.slice(0, start), languageId)).end;
  if (outer === 0 && changedAtTopLevel(code(selection, languageId), code(replacement, languageId))) {
    return 'it changes top-level code of the file (which runs when the file is loaded)';
  }
  return undefined;
}

/** Whether the text at bracket depth 0 differs between the two (the selection starting at the file's top level). */
function changedAtTopLevel(selection: string, replacement: string): boolean {
  const topLevel = (text: string) => {
    let depth = 0;
    let out = '';
    for (const c of text) {
      if (c === '(' || c === '[' || c === '{') {
        if (depth === 0) out += c;
        depth++;
      } else if (c === ')' || c === ']' || c === '}') {
        depth--;
        if (depth === 0) out += c;
      } else if (depth === 0) out += c;
    }
    return out.replace(/\s+/g, ' ').trim();
  };
  return topLevel(selection) !== topLevel(replacement);
}
