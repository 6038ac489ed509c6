// The pair family: two edits on related sites that only fix a bug together (both bounds of a range or a loop,
// both operators of a comparison chain, the same operator change at two comparisons of one operand).
import type { Node } from 'web-tree-sitter';
import { combined, replacement } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { callArguments, calleeName, isComparison } from './syntaxFacts';

/** An expression moved by `delta`: a literal changed, an existing `± k` adjusted, or `± 1` appended. */
function bumped(e: Node, delta: 1 | -1, ctx: FamilyContext): string | undefined {
  const { profile } = ctx;
  if (e.type === profile.integer && /^\d+$/.test(e.text)) return String(Number(e.text) + delta);
  if (profile.binary.has(e.type)) {
    const op = e.childForFieldName('operator')?.type;
    const k = e.childForFieldName('right');
    const left = e.childForFieldName('left');
    if ((op === '+' || op === '-') && k?.type === profile.integer && left && /^\d+$/.test(k.text)) {
      const value = (op === '+' ? 1 : -1) * Number(k.text) + delta;
      return value === 0 ? left.text : `${left.text} ${value > 0 ? '+' : '-'} ${Math.abs(value)}`;
    }
    if (!['+', '-', '*', '/', '%', '//'].includes(op ?? '')) return undefined;
  } else if (!profile.offsettable.has(e.type)) {
    return undefined;
  }
  return `${e.text} ${delta > 0 ? '+' : '-'} 1`;
}

function bump(e: Node, delta: 1 | -1, ctx: FamilyContext): MutationEdit | undefined {
  const text = bumped(e, delta, ctx);
  return text === undefined ? undefined : replacement(e.startIndex, e.endIndex, e.text, text, 'off-by-one', 0);
}

/** The operator token of a comparison with one operator, changed to its likeliest alternative. */
function flipped(op: Node, ctx: FamilyContext, rank = 0): MutationEdit | undefined {
  const alternatives = Object.hasOwn(ctx.profile.relational, op.type) ? ctx.profile.relational[op.type] : [];
  const alt = alternatives[rank];
  return alt === undefined ? undefined : replacement(op.startIndex, op.endIndex, op.type, alt, 'relational', 0);
}

function push(out: MutationEdit[], ctx: FamilyContext, a: MutationEdit | undefined, b: MutationEdit | undefined, rank: number): void {
  const pair = a && b ? combined(ctx.text, a, b, rank) : undefined;
  if (pair) out.push(pair);
}

/** Every pair edit `node` itself offers. */
export function pairEditsAt(node: Node, ctx: FamilyContext): MutationEdit[] {
  const out: MutationEdit[] = [];
  const { profile, tables } = ctx;
  // range(a, b) → range(a + 1, b + 1); xs[a:b] → xs[a + 1:b + 1].
  let bounds: Node[] | undefined;
  if (node.type === profile.call && tables.rangeCalls.has(calleeName(node, profile)?.text ?? '')) bounds = callArguments(node);
  if (node.type === profile.slice) {
    const parts = node.namedChildren.filter((n): n is Node => n !== null);
    if (parts.length === 2 && ctx.text.slice(parts[0].endIndex, parts[1].startIndex).trim() === ':') bounds = parts;
  }
  if (bounds && bounds.length >= 2) {
    for (const [delta, rank] of [[1, 0], [-1, 1]] as const) push(out, ctx, bump(bounds[0], delta, ctx), bump(bounds[1], delta, ctx), rank);
  }
  loopBounds(node, ctx, out);
  comparisonPairs(node, ctx, out);
  return out;
}

/** The loop variable's start and its comparison of a C-style loop: `i = 0; i < n` → `i = 1; i <= n`. */
function loopBounds(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { profile } = ctx;
  const clause = node.type === 'for_statement' ? (node.namedChildren.find((c) => c?.type === 'for_clause') ?? node) : undefined;
  if (!clause) return;
  const init = clause.childForFieldName('initializer') ?? clause.childForFieldName('init');
  const condition = clause.childForFieldName('condition');
  if (!init || !condition || !profile.binary.has(condition.type)) return;
  const op = condition.childForFieldName('operator');
  const bound = condition.childForFieldName('right');
  const variable = condition.childForFieldName('left')?.text;
  if (!op || !bound || !variable || !['<', '<=', '>', '>='].includes(op.type)) return;
  const declarator = init.type === 'variable_declarator' ? init : init.namedChildren.find((c) => c?.type === 'variable_declarator');
  let start = declarator?.childForFieldName('name')?.text === variable ? declarator.childForFieldName('value') : null;
  if (!start && init.childForFieldName('left')?.text === variable) start = init.childForFieldName('right');
  if (start?.type === 'expression_list') start = start.namedChildren[0]; // Go: i := 0
  if (!start) return;
  // A strict bound with one more start, or a loose one with one less: the same count of iterations, shifted.
  const strict = op.type === '<' || op.type === '>';
  const upward = op.type === '<' || op.type === '<=';
  const startDelta = (strict ? 1 : -1) * (upward ? 1 : -1);
  push(out, ctx, bump(start, startDelta as 1 | -1, ctx), flipped(op, ctx), 0);
  push(out, ctx, bump(start, 1, ctx), bump(bound, 1, ctx), 1);
  push(out, ctx, bump(start, -1, ctx), bump(bound, -1, ctx), 2);
}

/** The operator tokens and operands of a comparison (a binary one, or Python's chain). */
function parts(node: Node, ctx: FamilyContext): { ops: Node[]; operands: string[] } | undefined {
  const { profile } = ctx;
  if (!isComparison(node, profile)) return undefined;
  if (node.type === profile.comparison) {
    const ops = node.children.filter((c, i): c is Node => c !== null && node.fieldNameForChild(i) === 'operators');
    const operands = node.namedChildren.filter((n): n is Node => n !== null && !n.type.includes('comment')).map((n) => n.text);
    return { ops, operands };
  }
  const op = node.childForFieldName('operator');
  const operands = [node.childForFieldName('left')?.text ?? '', node.childForFieldName('right')?.text ?? ''];
  return op ? { ops: [op], operands } : undefined;
}

/** Both operators of `a < x < b` (or `a < x && x < b`), and one operator change at two comparisons of one operand. */
function comparisonPairs(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const mine = parts(node, ctx);
  if (!mine) return;
  if (mine.ops.length === 2) push(out, ctx, flipped(mine.ops[0], ctx), flipped(mine.ops[1], ctx), 0);
  if (mine.ops.length !== 1) return;
  const [op] = mine.ops;
  const logical = node.parent?.childForFieldName('operator')?.type;
  // Each pair once: from its first comparison to the later ones.
  for (const other of ctx.facts(node).comparisons) {
    const theirs = other.startIndex > node.endIndex ? parts(other, ctx) : undefined;
    if (!theirs || theirs.ops.length !== 1 || !mine.operands.some((o) => o !== '' && theirs.operands.includes(o))) continue;
    const [otherOp] = theirs.ops;
    const chained = node.parent?.id === other.parent?.id && (logical === ctx.tables.and || logical === ctx.tables.or);
    if (otherOp.type === op.type || chained) push(out, ctx, flipped(op, ctx), flipped(otherOp, ctx), chained ? 0 : 1);
    if (otherOp.type === op.type) push(out, ctx, flipped(op, ctx, 1), flipped(otherOp, ctx, 1), 2);
  }
}
