// Single edits the classic tables never generate: ±1 on a returned or assigned value, another property name,
// swapped subscript indices, swapped operands of a `+` on strings or lists, swapped elements of a literal, and the
// rarer arithmetic pairs.
import type { Node } from 'web-tree-sitter';
import { quote, replacement } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { calleeName } from './syntaxFacts';

/** Other property names offered per access: the same object's first, then the nearest. */
const PROPERTY_ALTERNATIVES = 4;
/** Arithmetic operators in the order a rarer replacement is tried (`-` → `%` first). */
const RARE_ORDER = ['%', '+', '-', '*', '/', '//'];
const additive = new Set(['+', '-', '*', '/', '%', '//', '**']);
/** Calls that make a string or a list, whatever their arguments. */
const sequenceCalls = new Set([
  'str', 'String', 'repr', 'join', 'format', 'toString', 'toFixed', 'concat', 'sorted', 'list', 'split', 'slice',
  'substring', 'trim', 'strip', 'lower', 'upper', 'toUpperCase', 'toLowerCase', 'replace', 'padStart', 'padEnd', 'repeat',
]);

/** Every gap edit `node` itself offers. */
export function gapEditsAt(node: Node, ctx: FamilyContext): MutationEdit[] {
  const out: MutationEdit[] = [];
  const { profile, tables } = ctx;
  for (const [type, field] of tables.assignedValues) {
    const value = node.type === type ? node.childForFieldName(field) : null;
    if (value) valueOffsets(value, ctx, out);
  }
  if (node.type === tables.returnStatement) {
    const value = node.namedChildren.find((c) => c !== null && !c.type.includes('comment'));
    if (value) valueOffsets(value, ctx, out);
  }
  if (profile.binary.has(node.type)) binaryGaps(node, ctx, out);
  if (tables.member && node.type === tables.member.type) propertyEdits(node, ctx, out);
  if (node.type === profile.subscript[0]) indexSwaps(node, ctx, out);
  if (LITERALS.has(node.type)) elementSwaps(node, ctx, out);
  return out;
}

/** Array, list, tuple and object literals, whose element order is the value (spreads: later ones win). */
const LITERALS = new Set(['array', 'list', 'tuple', 'object', 'dictionary']);
const SPREADS = new Set(['spread_element', 'list_splat', 'dictionary_splat']);

/**
 * `[...value, ...defaults]` → `[...defaults, ...value]`, `{ ...a, ...b }` → `{ ...b, ...a }`, `[lo, hi]` → `[hi, lo]`:
 * two neighbouring spreads anywhere (which one wins, or comes first, is the value), and the two elements of a pair.
 */
function elementSwaps(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const elements = node.namedChildren.filter((c): c is Node => c !== null && !c.type.includes('comment'));
  const keyed = node.type === 'object' || node.type === 'dictionary';
  const pair = elements.length === 2 && !keyed ? [[elements[0], elements[1]] as const] : [];
  const spreads = elements.slice(1).flatMap((b, i) => (SPREADS.has(b.type) && SPREADS.has(elements[i].type) ? [[elements[i], b] as const] : []));
  for (const [a, b] of pair.length > 0 ? pair : spreads) {
    if (a.text === b.text) continue;
    out.push({
      start: a.startIndex,
      end: b.endIndex,
      text: b.text + ctx.text.slice(a.endIndex, b.startIndex) + a.text,
      family: 'swap',
      rank: 1,
      description: `swap ${quote(a.text)} and ${quote(b.text)}`,
    });
  }
}

/** `return n` → `return n - 1`, `x = a * b` → `x = a * b + 1`; literals and `n ± 1` have their own edits. */
function valueOffsets(e: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { profile } = ctx;
  if (!profile.offsettable.has(e.type) || e.type === 'parenthesized_expression' || isSequence(e, ctx)) return;
  if (profile.binary.has(e.type)) {
    const op = e.childForFieldName('operator')?.type ?? '';
    if (!additive.has(op)) return;
    if ((op === '+' || op === '-') && e.childForFieldName('right')?.type === profile.integer) return;
  }
  out.push(replacement(e.startIndex, e.endIndex, e.text, `${e.text} + 1`, 'offset', 0));
  out.push(replacement(e.startIndex, e.endIndex, e.text, `${e.text} - 1`, 'offset', 1));
}

/** Whether an expression is a string or a list, so that `+` on it does not commute. */
function isSequence(e: Node, ctx: FamilyContext, depth = 0): boolean {
  if (ctx.tables.sequences.has(e.type)) return true;
  if (e.type === ctx.profile.identifier) {
    // A variable first given a string or a list (`let s = String(v)`, `pad = ''`, `fill = ' '`).
    const init = ctx.facts(e).initialisers.get(e.text);
    return depth < 2 && init !== undefined && isSequence(init, ctx, depth + 1);
  }
  if (e.type === ctx.profile.call) return sequenceCalls.has(calleeName(e, ctx.profile)?.text ?? '');
  if (ctx.profile.binary.has(e.type) && e.childForFieldName('operator')?.type === '+') {
    const left = e.childForFieldName('left');
    const right = e.childForFieldName('right');
    return (left !== null && isSequence(left, ctx, depth)) || (right !== null && isSequence(right, ctx, depth));
  }
  return false;
}

function binaryGaps(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { profile, text } = ctx;
  const op = node.childForFieldName('operator');
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (!op || !left || !right) return;
  if (op.type === '+' && (isSequence(left, ctx) || isSequence(right, ctx))) {
    out.push({
      start: left.startIndex,
      end: right.endIndex,
      text: right.text + text.slice(left.endIndex, right.startIndex) + left.text,
      family: 'swap',
      rank: 1,
      description: `swap ${quote(left.text)} and ${quote(right.text)} around ${quote('+')}`,
    });
  }
  // `1 + n` → `n`: the mirror of dropping the `+ 1` of `n + 1`.
  if (op.type === '+' && left.type === profile.integer) {
    out.push(replacement(node.startIndex, node.endIndex, node.text, right.text, 'offset', 0));
  }
  if (Object.hasOwn(profile.arithmetic, op.type) && RARE_ORDER.includes(op.type)) {
    const common = profile.arithmetic[op.type];
    RARE_ORDER.filter((alt) => alt !== op.type && !common.includes(alt) && Object.hasOwn(profile.arithmetic, alt)).forEach((alt, rank) =>
      out.push(replacement(op.startIndex, op.endIndex, op.type, alt, 'rare-operator', rank)),
    );
  }
}

/** `p.start` → `p.end`: another property of the same object used in the function first, then the nearest others. */
function propertyEdits(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const member = ctx.tables.member;
  const property = member ? node.childForFieldName(member.property) : null;
  const object = node.namedChildren[0];
  if (!member || !property || !object) return;
  const parent = node.parent;
  if (parent?.type === ctx.profile.call && parent.childForFieldName('function')?.id === node.id) return;
  const all = ctx.facts(node).properties.filter((p) => p.text !== property.text);
  const sameObject = all.filter((p) => p.parent?.namedChildren[0]?.text === object.text);
  const byDistance = [...all].sort((a, b) => Math.abs(a.startIndex - node.startIndex) - Math.abs(b.startIndex - node.startIndex));
  const names: string[] = [];
  // The file's other property names (a field no line of this function reads yet) come after the function's own.
  for (const name of [...sameObject.map((p) => p.text), ...byDistance.map((p) => p.text), ...ctx.fileProperties()]) {
    if (names.length < PROPERTY_ALTERNATIVES && name !== property.text && !names.includes(name)) names.push(name);
  }
  names.forEach((name, rank) => out.push(replacement(property.startIndex, property.endIndex, property.text, name, 'property', rank)));
}

/** `d[j][k]` → `d[k][j]`; Python `d[j, k]` → `d[k, j]`. */
function indexSwaps(node: Node, ctx: FamilyContext, out: MutationEdit[]): void {
  const { profile, text } = ctx;
  const indexField = profile.subscript[1];
  const indices: Node[] = [];
  node.children.forEach((c, i) => {
    if (c && node.fieldNameForChild(i) === indexField) indices.push(c);
  });
  const pairs: Array<[Node, Node]> = [];
  for (let i = 0; i + 1 < indices.length; i++) pairs.push([indices[i], indices[i + 1]]);
  const inner = node.namedChildren[0];
  if (inner?.type === node.type && indices.length === 1) {
    const innerIndices: Node[] = [];
    inner.children.forEach((c, i) => {
      if (c && inner.fieldNameForChild(i) === indexField) innerIndices.push(c);
    });
    if (innerIndices.length === 1) pairs.push([innerIndices[0], indices[0]]);
  }
  for (const [a, b] of pairs) {
    if (a.text === b.text || a.type === profile.slice || b.type === profile.slice) continue;
    out.push({
      start: a.startIndex,
      end: b.endIndex,
      text: b.text + text.slice(a.endIndex, b.startIndex) + a.text,
      family: 'swap',
      rank: 1,
      description: `swap the indices ${quote(a.text)} and ${quote(b.text)}`,
    });
  }
}
