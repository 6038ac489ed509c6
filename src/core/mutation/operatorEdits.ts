// The operator, boolean, literal, off-by-one and swap families: the edits one syntax node offers.
import type { Node } from 'web-tree-sitter';
import { quote, replacement } from './edit';
import type { MutationEdit, MutationFamily } from './edit';
import type { OperatorTable, SyntaxProfile } from './profileTypes';

/** What the families need besides the node: the file text and the profile. */
export interface EditContext {
  readonly text: string;
  readonly profile: SyntaxProfile;
}

const offsetOperators = new Set(['+', '-', '*', '/', '%', '//', '**']);

/** Every operator-tier and swap edit that `node` itself offers (its children are visited separately). */
export function operatorEditsAt(node: Node, ctx: EditContext): MutationEdit[] {
  const { profile } = ctx;
  const out: MutationEdit[] = [];
  if (profile.binary.has(node.type)) binaryEdits(node, ctx, out);
  if (node.type === profile.comparison) comparisonEdits(node, ctx, out);
  if (profile.augmented.has(node.type)) {
    const op = node.childForFieldName('operator');
    // Java and Go use one node for `=` and `+=`; only a compound operator has arithmetic to change.
    if (op && op.type.length >= 2 && op.type.endsWith('=') && op.type !== ':=') {
      tokenEdits(op, op.type.slice(0, -1), profile.arithmetic, 'arithmetic', out, (alt) => alt + '=');
    }
  }
  if (profile.update.has(node.type)) {
    const op = node.children.find((c) => c?.type === '++' || c?.type === '--');
    if (op) tokenEdits(op, op.type, { '++': ['--'], '--': ['++'] }, 'arithmetic', out);
  }
  if (node.type === profile.notNode && (!profile.notOperator || node.childForFieldName('operator')?.type === profile.notOperator)) {
    const operand = node.childForFieldName(profile.notOperand);
    if (operand) out.push(replacement(node.startIndex, node.endIndex, node.text, operand.text, 'negation', 0));
  }
  for (const [type, field] of profile.conditions) {
    if (node.type !== type) continue;
    const condition = typeof field === 'number' ? node.namedChildren[field] : node.childForFieldName(field);
    // The only alternative at its site: how rare a flipped condition is, the negation class's share says (prior.ts).
    if (condition) negationEdit(condition, ctx, 0, out);
  }
  if ((node.type === 'true' || node.type === 'false') && profile.booleans[node.text]) {
    out.push(replacement(node.startIndex, node.endIndex, node.text, profile.booleans[node.text], 'boolean-literal', 0));
  }
  if (node.type === profile.integer) integerEdits(node, ctx, out);
  if (node.type === profile.subscript[0]) {
    for (const index of indexExpressions(node, profile)) offsetEdits(index, ctx, out);
  }
  if (node.type === profile.call) callEdits(node, ctx, out);
  return out;
}

/** Replaces an operator token by each alternative in its table. */
function tokenEdits(
  op: Node,
  key: string,
  table: OperatorTable,
  family: MutationFamily,
  out: MutationEdit[],
  spell: (alt: string) => string = (alt) => alt,
): void {
  const alternatives = Object.hasOwn(table, key) ? table[key] : [];
  alternatives.forEach((alt, rank) => out.push(replacement(op.startIndex, op.endIndex, op.text, spell(alt), family, rank)));
}

/** `right <between> left` for the span from `left` to `right`, keeping the operator and spacing between them. */
function swapped(left: Node, right: Node, text: string): string {
  return right.text + text.slice(left.endIndex, right.startIndex) + left.text;
}

/** Swaps two nodes; `around` names the operator between them, or is undefined for call arguments. */
function swapEdit(left: Node, right: Node, ctx: EditContext, rank: number, around?: string): MutationEdit {
  const pair = `${quote(left.text)} and ${quote(right.text)}`;
  return {
    start: left.startIndex,
    end: right.endIndex,
    text: swapped(left, right, ctx.text),
    family: 'swap',
    rank,
    description: around === undefined ? `swap arguments ${pair}` : `swap ${pair} around ${quote(around)}`,
  };
}

function binaryEdits(node: Node, ctx: EditContext, out: MutationEdit[]): void {
  const { profile } = ctx;
  const op = node.childForFieldName('operator');
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (!op || !left || !right) return;
  const key = op.type;
  if (Object.hasOwn(profile.relational, key)) {
    tokenEdits(op, key, profile.relational, 'relational', out);
    out.push(swapEdit(left, right, ctx, 0, key));
    // Only the bound: `i + 1 < n` says the same as `i < n - 1`, and an equivalent twin only dilutes the samples.
    offsetEdits(right, ctx, out);
  }
  if (Object.hasOwn(profile.arithmetic, key)) tokenEdits(op, key, profile.arithmetic, 'arithmetic', out);
  if (Object.hasOwn(profile.logical, key)) {
    tokenEdits(op, key, profile.logical, 'logical', out);
    negationEdit(left, ctx, 2, out);
    negationEdit(right, ctx, 2, out);
  }
  if (profile.nonCommutative.has(key)) out.push(swapEdit(left, right, ctx, 0, key));
  // `n - 1` → `n`: the off-by-one fix that deletes an adjustment rather than adding one.
  if ((key === '+' || key === '-') && right.type === profile.integer) {
    out.push(replacement(node.startIndex, node.endIndex, node.text, left.text, 'off-by-one', 0));
  }
}

/** Python's `a < b` (and chains `a < b <= c`): each operator in turn, plus the sides of a single comparison. */
function comparisonEdits(node: Node, ctx: EditContext, out: MutationEdit[]): void {
  const operators = node.children.filter((c, i): c is Node => c !== null && node.fieldNameForChild(i) === 'operators');
  for (const op of operators) tokenEdits(op, op.type, ctx.profile.relational, 'relational', out);
  const operands = node.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
  if (operands.length === 2 && operators.length === 1) out.push(swapEdit(operands[0], operands[1], ctx, 0, operators[0].type));
  // Bounds of ordering and equality comparisons only: `x in xs + 1` is never the fix.
  if (operators.some((op) => /^[<>=!]/.test(op.type))) for (const operand of operands.slice(1)) offsetEdits(operand, ctx, out);
}

/** Adds a negation to a condition; the parentheses of a JS `if (…)` stay where they are. */
function negationEdit(condition: Node, ctx: EditContext, rank: number, out: MutationEdit[]): void {
  let target: Node | null = condition;
  // A JS for loop's condition is a statement (`i < n;`); an if/while condition keeps its own parentheses.
  if (target.type === 'expression_statement') target = target.namedChildren[0];
  else if (target.type === 'parenthesized_expression' && condition.parent?.type.endsWith('_statement')) {
    target = target.namedChildren[0];
  }
  if (!target || target.type === 'comment' || target.type === ctx.profile.notNode) return;
  const negated = ctx.profile.negate(target.text, target.type);
  out.push(replacement(target.startIndex, target.endIndex, target.text, negated, 'negation', rank));
}

/** n → n + 1, n - 1; 0 → 1, -1. `x + 0` is left out: it equals dropping the `+ 1`, which the binary family offers. */
function integerEdits(node: Node, ctx: EditContext, out: MutationEdit[]): void {
  if (!/^\d+$/.test(node.text)) return; // decimal integers only: not 0x1f, 1_000, 1.5 or 1n
  const n = Number(node.text);
  if (!Number.isSafeInteger(n)) return;
  const parent = node.parent;
  const isAdditiveOperand =
    parent !== null && ctx.profile.binary.has(parent.type) && parent.childForFieldName('right')?.startIndex === node.startIndex &&
    ['+', '-'].includes(parent.childForFieldName('operator')?.type ?? '');
  const alternatives = n === 0 ? [1, -1] : [n + 1, n - 1];
  alternatives
    .filter((alt) => !(isAdditiveOperand && alt === 0))
    .forEach((alt, rank) => out.push(replacement(node.startIndex, node.endIndex, node.text, String(alt), 'integer-literal', rank)));
}

/** The expressions used as an index: JS `a[i]`, Python `a[i]`, `a[i:j]`, `a[i, j]`. */
function indexExpressions(node: Node, profile: SyntaxProfile): Node[] {
  const fieldName = profile.subscript[1];
  const result: Node[] = [];
  node.children.forEach((child, i) => {
    if (!child || node.fieldNameForChild(i) !== fieldName) return;
    if (child.type === profile.slice) result.push(...child.namedChildren.filter((n): n is Node => n !== null));
    else result.push(child);
  });
  return result;
}

/** `e` → `e + 1`, `e - 1` for an index, a comparison bound or an argument. Literals have their own family. */
function offsetEdits(e: Node, ctx: EditContext, out: MutationEdit[]): void {
  const { profile } = ctx;
  if (!profile.offsettable.has(e.type)) return;
  if (profile.binary.has(e.type)) {
    const op = e.childForFieldName('operator')?.type ?? '';
    if (!offsetOperators.has(op)) return;
    // `n - 1` + 1 would only undo the adjustment; dropping it and changing the literal cover that better.
    if ((op === '+' || op === '-') && e.childForFieldName('right')?.type === profile.integer) return;
  }
  out.push(replacement(e.startIndex, e.endIndex, e.text, `${e.text} + 1`, 'off-by-one', 0));
  out.push(replacement(e.startIndex, e.endIndex, e.text, `${e.text} - 1`, 'off-by-one', 1));
}

/** Swapped callees (`min`↔`max`), ±1 on arguments and swapped pairs of arguments. */
function callEdits(node: Node, ctx: EditContext, out: MutationEdit[]): void {
  const { profile } = ctx;
  const callee = node.childForFieldName('function');
  const name =
    node.childForFieldName('name') ?? // Java's method_invocation names the method itself
    (callee?.type === profile.identifier
      ? callee
      : callee?.childForFieldName('property') ?? callee?.childForFieldName('attribute') ?? callee?.childForFieldName('field'));
  if (name && Object.hasOwn(profile.swappedCallees, name.text)) {
    out.push(replacement(name.startIndex, name.endIndex, name.text, profile.swappedCallees[name.text], 'callee', 0));
  }
  const list = node.childForFieldName('arguments');
  if (!list || (list.type !== 'arguments' && list.type !== 'argument_list')) return;
  const args = list.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
  for (const arg of args) {
    if (arg.type === 'keyword_argument') {
      const value = arg.childForFieldName('value');
      if (value) offsetEdits(value, ctx, out);
    } else if (!profile.unswappableArguments.has(arg.type)) {
      offsetEdits(arg, ctx, out);
    }
  }
  for (let i = 0; i < args.length; i++) {
    for (let j = i + 1; j < args.length; j++) {
      if (profile.unswappableArguments.has(args[i].type) || profile.unswappableArguments.has(args[j].type)) continue;
      // Adjacent pairs first: they are the usual mix-up.
      out.push(swapEdit(args[i], args[j], ctx, j - i - 1));
    }
  }
}
