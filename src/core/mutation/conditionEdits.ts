// The condition families: a conjunct or disjunct dropped or added, and the branches of an if/else swapped.
import type { Node } from 'web-tree-sitter';
import { quote, replacement } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { isComparison } from './syntaxFacts';

/** Comparisons of the function offered as a new conjunct, nearest first; more would swamp a long function. */
const ADDED_CONJUNCTS = 3;

/** Every condition edit `node` itself offers (its children are visited separately). */
export function conditionEditsAt(node: Node, ctx: FamilyContext): MutationEdit[] {
  const out: MutationEdit[] = [];
  const op = logicalOperator(node, ctx);
  if (op) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    // An operand binds at least as tightly as the chain it came from, so it needs no new parentheses.
    if (left && right) {
      out.push(replacement(node.startIndex, node.endIndex, node.text, left.text, 'condition', 0));
      out.push(replacement(node.startIndex, node.endIndex, node.text, right.text, 'condition', 1));
    }
  }
  const target = conditionOf(node, ctx);
  if (target) {
    addedConjuncts(target, ctx, out);
    indexGuards(target, ctx, out);
  }
  branchSwap(node, ctx, out);
  return out;
}

/** `&&`/`||` (`and`/`or`) of a binary node, or undefined; `??` is not a condition. */
function logicalOperator(node: Node, ctx: FamilyContext): string | undefined {
  if (!ctx.profile.binary.has(node.type)) return undefined;
  const op = node.childForFieldName('operator')?.type;
  return op === ctx.tables.and || op === ctx.tables.or ? op : undefined;
}

/** The condition expression `node` holds (an `if`, loop, ternary, or a returned comparison), parentheses aside. */
function conditionOf(node: Node, ctx: FamilyContext): Node | undefined {
  const { profile, tables } = ctx;
  let condition: Node | null | undefined;
  for (const [type, field] of profile.conditions) {
    if (node.type === type) condition = typeof field === 'number' ? node.namedChildren[field] : node.childForFieldName(field);
  }
  if (node.type === 'for_statement' || node.type === 'for_clause') condition ??= node.childForFieldName('condition');
  if (node.type === tables.returnStatement) {
    const value = node.namedChildren.find((c) => c !== null && !c.type.includes('comment'));
    if (value && (isComparison(value, profile) || logicalOperator(value, ctx))) condition = value;
  }
  if (condition?.type === 'expression_statement') condition = condition.namedChildren[0];
  if (condition?.type === 'parenthesized_expression' && node.type.endsWith('_statement')) condition = condition.namedChildren[0];
  return condition && condition.isNamed && !condition.type.includes('comment') ? condition : undefined;
}

/** `a` → `a && c` and `a || c`, for the nearest comparisons `c` of the function not already in `a`. */
function addedConjuncts(target: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { tables } = ctx;
  const inside = (c: Node): boolean => c.startIndex >= target.startIndex && c.endIndex <= target.endIndex;
  const present = new Set(ctx.facts(target).comparisons.filter(inside).map((c) => c.text));
  const seen = new Set<string>();
  const candidates = ctx.facts(target).comparisons
    .filter((c) => !inside(c) && !present.has(c.text) && !seen.has(c.text) && seen.add(c.text))
    .sort((a, b) => Math.abs(a.startIndex - target.startIndex) - Math.abs(b.startIndex - target.startIndex) || a.startIndex - b.startIndex)
    .slice(0, ADDED_CONJUNCTS);
  const isOr = logicalOperator(target, ctx) === tables.or;
  const joiners = isOr ? [tables.or, tables.and] : [tables.and, tables.or];
  candidates.forEach((c, k) => {
    joiners.forEach((joiner, j) => {
      const loose = tables.looseConditions.has(target.type) || (joiner === tables.and && isOr);
      const left = loose ? `(${target.text})` : target.text;
      out.push({
        start: target.startIndex,
        end: target.endIndex,
        text: `${left} ${joiner} ${c.text}`,
        family: 'condition',
        rank: 2 * k + j,
        description: `${quote(target.text)} → ${quote(`${left} ${joiner} ${c.text}`)}`,
      });
    });
  });
}

/** `xs[i] > 0` → `i < xs.length && xs[i] > 0`, `i >= 0 && …`: a bounds check before an index the condition reads. */
function indexGuards(target: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { profile, tables } = ctx;
  const lengthOf = tables.lengthOf;
  if (!lengthOf) return;
  const subscripts: Node[] = [];
  const visit = (n: Node): void => {
    if (profile.functions.has(n.type) || profile.opaque.has(n.type)) return;
    if (n.type === profile.subscript[0]) subscripts.push(n);
    for (const child of n.namedChildren) if (child) visit(child);
  };
  visit(target);
  const seen = new Set<string>();
  let k = 0;
  for (const subscript of subscripts) {
    const object = subscript.namedChildren[0];
    const indices = subscript.children.filter((c, i): c is Node => c !== null && subscript.fieldNameForChild(i) === profile.subscript[1]);
    if (!object || indices.length !== 1 || indices[0].type === profile.slice || object.text.includes('\n')) continue;
    const index = indices[0].text;
    if (seen.has(`${object.text}[${index}]`) || k >= ADDED_CONJUNCTS) continue;
    seen.add(`${object.text}[${index}]`);
    const literal = /^\d+$/.test(index);
    const upper = `${index} < ${lengthOf(object.text)}`;
    // An index that counts down (`end - 1`) runs off the start; one that counts up, off the end.
    const guards = literal ? [upper] : /-\s*\d+$/.test(index) ? [`${index} >= 0`, upper] : [upper, `${index} >= 0`];
    const loose = tables.looseConditions.has(target.type) || logicalOperator(target, ctx) === tables.or;
    const condition = loose ? `(${target.text})` : target.text;
    guards.forEach((guard, j) => {
      if (target.text.includes(guard)) return;
      const text = `${guard} ${tables.and} ${condition}`;
      out.push({ start: target.startIndex, end: target.endIndex, text, family: 'condition', rank: 2 * k + j, description: `${quote(target.text)} → ${quote(text)}` });
    });
    k++;
  }
}

/** The statement after `else`, unless it is another `if` (an else-if chain is not a pair of branches). */
function elseBody(ifNode: Node, ctx: FamilyContext): Node | undefined {
  const { tables } = ctx;
  const alternatives: Node[] = [];
  ifNode.children.forEach((c, i) => {
    if (c && ifNode.fieldNameForChild(i) === 'alternative') alternatives.push(c);
  });
  if (alternatives.length !== 1) return undefined;
  const alternative = alternatives[0];
  if (alternative.type === tables.elifClause) return undefined;
  let body: Node | null | undefined = alternative;
  if (tables.elseClause && alternative.type === tables.elseClause) {
    body = tables.elseBody
      ? alternative.childForFieldName(tables.elseBody)
      : alternative.namedChildren.find((c) => c !== null && !c.type.includes('comment'));
  }
  return body && body.type !== tables.ifStatement ? body : undefined;
}

/** `if (c) A else B` → `if (c) B else A`, and the same for a conditional expression. */
function branchSwap(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { tables, text } = ctx;
  let first: Node | null | undefined;
  let second: Node | null | undefined;
  if (node.type === tables.ifStatement) {
    first = node.childForFieldName('consequence');
    second = elseBody(node, ctx);
  } else if (tables.conditional && node.type === tables.conditional.type) {
    const [a, b] = tables.conditional.branches.map((f) => (typeof f === 'number' ? node.namedChildren[f] : node.childForFieldName(f)));
    first = a;
    second = b;
  }
  if (!first || !second || first.endIndex > second.startIndex) return;
  const between = text.slice(first.endIndex, second.startIndex);
  if (/#|\/\/|\/\*/.test(between)) return; // a comment would stay with the wrong branch
  out.push({
    start: first.startIndex,
    end: second.endIndex,
    text: second.text + text.slice(first.endIndex, second.startIndex) + first.text,
    family: 'branches',
    rank: 0,
    description: `swap the branches ${quote(first.text)} and ${quote(second.text)}`,
  });
}
