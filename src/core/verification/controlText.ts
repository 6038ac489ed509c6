// The strength check's control run: the verified fix with comments added, the same program in a different text. A
// fix whose tests fail on it depends on its own source text (a hash of its file, of its own function's text) and
// cannot be judged by variants of it, which change that text too.
import type { Node } from 'web-tree-sitter';
import { grammarFor, parserFor } from '../mutation/grammars';
import { overlapping } from '../mutation/generator';
import { countSyntaxErrors } from '../mutation/parseCheck';
import { profileFor } from '../mutation/profiles';

/** Line comment starters by language id; a language without one here gets no control run. */
const LINE_COMMENT: Readonly<Record<string, string>> = {
  javascript: '//', typescript: '//', javascriptreact: '//', typescriptreact: '//', java: '//', go: '//', rust: '//', c: '//',
  cpp: '//', csharp: '//', kotlin: '//', swift: '//', scala: '//', dart: '//', php: '//',
  python: '#', ruby: '#', shellscript: '#', perl: '#', r: '#', lua: '--', sql: '--',
};

const MARK = 'verified-fix strength check: control';

/** Whether a fix in `languageId` gets a control run: its language has a comment this tool can add. */
export function hasControlRun(languageId: string): boolean {
  return LINE_COMMENT[languageId] !== undefined;
}

/**
 * `text` with a comment line added at its end: the same program, a different text (the control of a file whose
 * language the offline generator does not parse, and the part of every control outside the change).
 */
export function withControlComment(text: string, languageId: string): string | undefined {
  const comment = LINE_COMMENT[languageId];
  if (!comment) return undefined;
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${comment} ${MARK}\n`;
}

/**
 * The control text of `fixed`, whose change is `region`: a comment at the end of the file and, where the language is
 * parsed, one on every line of the change (before the line's last token in the brace languages, at its end in
 * Python), so a fix that hashes its own function's text, or any of its changed lines, sees a change there as well.
 * A place inside a string, a template, a regex, JSX text or a comment is never used (a line with no other place keeps
 * its text); where the comments would make the file parse worse, only the one at the end is added.
 */
export async function controlText(fixed: string, region: Region, languageId: string): Promise<string | undefined> {
  const atEnd = withControlComment(fixed, languageId);
  const grammar = grammarFor(languageId);
  if (atEnd === undefined || !grammar) return atEnd;
  const parser = await parserFor(grammar);
  const tree = parser.parse(fixed);
  if (!tree) return atEnd;
  try {
    const opaque = profileFor(grammar).opaque;
    const python = grammar === 'python';
    const comment = python ? `  # ${MARK}` : `/* ${MARK} */ `;
    // Each line's place: the first of its places outside strings, templates and the like; a line with none keeps its text.
    const places = (python ? lineEnds(fixed, region).map((end) => [end]) : tokenStartsByLine(tree.rootNode, fixed, region, opaque))
      .map((line) => line.find((place) => plainCodeAt(tree.rootNode, place, opaque)))
      .filter((place): place is number => place !== undefined);
    // Lines last first, so a comment added to a line leaves the offsets of the lines before it (and the tree's) as
    // they are; one parse checks them all (a comment between tokens leaves a parse as it was, so this is a safeguard).
    const text = places.reduce((text, at) => text.slice(0, at) + comment + text.slice(at), fixed);
    const reparsed = parser.parse(text);
    const parses = reparsed !== null && countSyntaxErrors(reparsed.rootNode) <= countSyntaxErrors(tree.rootNode);
    reparsed?.delete();
    return parses ? withControlComment(text, languageId) : atEnd;
  } finally {
    tree.delete();
  }
}

type Region = { readonly start: number; readonly end: number };

const NOTHING_OPAQUE: ReadonlySet<string> = new Set();

/**
 * The starts of the code tokens inside `region` (not comments; not one at the region's very start, which may be
 * outside a function the change is the whole of), grouped by line: lines last first, each line's tokens last first.
 */
function tokenStartsByLine(root: Node, text: string, region: Region, opaque: ReadonlySet<string>): number[][] {
  const byLine = new Map<number, number[]>();
  // Every node is entered (a string's quotes are places: before its opening one is outside it); plainCodeAt decides.
  overlapping(root, region.start, region.end, NOTHING_OPAQUE, (node) => {
    const token = node.childCount === 0 && node.endIndex > node.startIndex && !opaque.has(node.type);
    if (!token || node.startIndex <= region.start || node.endIndex > region.end) return;
    const line = text.lastIndexOf('\n', node.startIndex - 1);
    byLine.set(line, [node.startIndex, ...(byLine.get(line) ?? [])]);
  });
  return [...byLine.entries()].sort(([a], [b]) => b - a).map(([, starts]) => starts);
}

/** Ends of the non-blank lines inside `region` that do not continue with a backslash (before a trailing `\r`), the last first. */
function lineEnds(text: string, region: Region): number[] {
  const ends: number[] = [];
  let lineStart = region.start;
  while (lineStart < region.end) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 || newline > region.end ? region.end : newline;
    const end = text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    const line = text.slice(lineStart, end);
    if (line.trim() !== '' && !line.endsWith('\\')) ends.push(end);
    lineStart = lineEnd + 1;
  }
  return ends.reverse();
}

/**
 * Whether a comment can go at `offset`: the smallest node holding the characters on both sides of it (tree-sitter's
 * range end is exclusive) is not a string, template, comment or regex, nor JSX outside `{…}` (right after a string's
 * closing quote is fine, inside it is not).
 */
function plainCodeAt(root: Node, offset: number, opaque: ReadonlySet<string>): boolean {
  for (let node: Node | null = root.descendantForIndex(Math.max(offset - 1, 0), Math.min(offset + 1, root.endIndex)); node; node = node.parent) {
    if (node.type === 'jsx_expression') return true;
    if (opaque.has(node.type) || node.type === 'template_string' || node.type.startsWith('jsx')) return false;
  }
  return true;
}
