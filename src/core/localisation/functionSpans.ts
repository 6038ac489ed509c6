// The functions of a source file as the mutation generator's parser sees them: name and lines, for ranking and for a request's range.
import type { Node } from 'web-tree-sitter';
import { grammarFor, parserFor } from '../mutation/grammars';
import { profileFor } from '../mutation/profiles';

/** One function (or method) of a file; lines 1-based and inclusive. */
export interface FunctionSpan {
  /** Its name where the code gives one (`inRange`, `Range.clamp`), else `function at line N`. */
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The span of the function nested deepest around it, if any: its lines belong to the innermost function. */
  readonly depth: number;
}

/** Node types whose `name` field names the function (or whose parent names it: `const f = () => …`, `f: function …`). */
const NAMING_PARENTS: Readonly<Record<string, string>> = {
  variable_declarator: 'name', assignment_expression: 'left', pair: 'key', public_field_definition: 'name',
  field_definition: 'property', assignment: 'left',
};

/** The class (or object) a method belongs to, for `Range.clamp`. */
const CLASS_TYPES = new Set(['class_declaration', 'class', 'class_definition', 'class_body']);

function nameOf(node: Node): string | undefined {
  const own = node.childForFieldName('name')?.text;
  if (own) return own;
  const parent = node.parent;
  const field = parent ? NAMING_PARENTS[parent.type] : undefined;
  return field ? parent?.childForFieldName(field)?.text : undefined;
}

function classOf(node: Node): string | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'class_body') continue;
    if (CLASS_TYPES.has(p.type)) return p.childForFieldName('name')?.text;
  }
  return undefined;
}

/**
 * Every function of `text` in `languageId`, outermost first in text order; [] for a language the parser does not
 * know or a file it cannot parse. Anonymous callbacks are kept (a bug can live in one) under their line.
 */
export async function functionSpans(languageId: string, text: string): Promise<FunctionSpan[]> {
  const grammar = grammarFor(languageId);
  if (!grammar) return [];
  const profile = profileFor(grammar);
  const parser = await parserFor(grammar);
  const tree = parser.parse(text);
  if (!tree) return [];
  const spans: FunctionSpan[] = [];
  const visit = (node: Node, depth: number) => {
    const isFunction = profile.functions.has(node.type) && node.type !== 'lambda';
    if (isFunction) {
      const startLine = node.startPosition.row + 1;
      const name = nameOf(node);
      const owner = name ? classOf(node) : undefined;
      spans.push({ name: name ? (owner ? `${owner}.${name}` : name) : `function at line ${startLine}`, startLine, endLine: node.endPosition.row + 1, depth });
    }
    for (const child of node.namedChildren) if (child) visit(child, depth + (isFunction ? 1 : 0));
  };
  try {
    visit(tree.rootNode, 0);
  } finally {
    tree.delete();
  }
  return spans;
}

/** The innermost function holding `line` (1-based), if any. */
export function functionAt(spans: readonly FunctionSpan[], line: number): FunctionSpan | undefined {
  let best: FunctionSpan | undefined;
  for (const span of spans) if (span.startLine <= line && line <= span.endLine && (!best || span.depth > best.depth)) best = span;
  return best;
}

/**
 * The innermost function around the 0-based offset `offset` of `text`, by the engine's parser: what an editor
 * without a symbol provider (or whose provider is slow) takes when nothing is selected.
 */
export async function enclosingFunctionAt(languageId: string, text: string, offset: number): Promise<FunctionSpan | undefined> {
  const line = text.slice(0, Math.max(0, offset)).split('\n').length;
  return functionAt(await functionSpans(languageId, text), line);
}
