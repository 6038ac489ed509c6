// The update family: the missing update of state a loop reads but nothing ever changes (`previous`, a `seen` set).
import type { Node } from 'web-tree-sitter';
import { quote } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { calleeName, callArguments, indentAt, startsLine } from './syntaxFacts';

/** Updates offered per loop body; a loop seldom forgets more than one. */
const UPDATES = 3;

/** Membership tests in `node`: Python `k in seen`, JavaScript `seen.has(k)` / `seen.includes(k)` → [collection, item]. */
function membershipTests(node: Node, ctx: FamilyContext, into: Array<[string, string]>): void {
  const { profile } = ctx;
  if (profile.functions.has(node.type) || profile.opaque.has(node.type)) return;
  if (node.type === profile.comparison) {
    const ops = node.children.filter((c, i) => c !== null && node.fieldNameForChild(i) === 'operators');
    const operands = node.namedChildren.filter((n): n is Node => n !== null);
    if (ops.length === 1 && (ops[0]?.type === 'in' || ops[0]?.type === 'not in') && operands.length === 2) into.push([operands[1].text, operands[0].text]);
  }
  if (node.type === profile.call) {
    const name = calleeName(node, profile)?.text;
    const args = callArguments(node);
    const receiver = node.childForFieldName('function')?.namedChildren[0];
    if ((name === 'has' || name === 'includes') && args?.length === 1 && receiver) into.push([receiver.text, args[0].text]);
  }
  for (const child of node.namedChildren) if (child) membershipTests(child, ctx, into);
}

/** The variable a `for … of`/`for … in` loop binds, if it is a plain name. */
function loopVariable(loop: Node, ctx: FamilyContext): string | undefined {
  const left = loop.childForFieldName('left');
  return left?.type === ctx.profile.identifier ? left.text : undefined;
}

/**
 * At the end of a loop body: the collection a membership test reads but nothing fills gets the tested item
 * (`seen.add(key)`); a variable the loop reads but nothing reassigns gets the loop variable (`previous = day`).
 */
export function updateEdits(body: Node, statements: readonly Node[], loop: Node, ctx: FamilyContext): MutationEdit[] {
  const { tables, text, profile } = ctx;
  const last = statements[statements.length - 1];
  if (!last || tables.jumps.has(last.type) || !startsLine(text, last.startIndex)) return [];
  const facts = ctx.facts(body);
  const updates: string[] = [];
  const tests: Array<[string, string]> = [];
  membershipTests(loop, ctx, tests);
  for (const [collection, item] of tests) {
    const init = facts.initialisers.get(collection);
    if (!init || facts.mutated.has(collection) || facts.reassigned.has(collection)) continue;
    const statement = tables.collect(init.text, collection, item);
    if (statement && !updates.includes(statement)) updates.push(statement);
  }
  const variable = loopVariable(loop, ctx);
  const read = new Set<string>();
  const visit = (n: Node): void => {
    if (n.type === profile.identifier) read.add(n.text);
    for (const child of n.namedChildren) if (child && !profile.functions.has(child.type)) visit(child);
  };
  visit(body);
  for (const name of read) {
    const init = facts.initialisers.get(name);
    if (!variable || name === variable || !init || init.startIndex > loop.startIndex) continue;
    if (facts.reassigned.has(name) || facts.mutated.has(name) || /^const\b/.test(init.parent?.parent?.text ?? '')) continue;
    // Only scalars: a collection or a call's result is filled or kept, not replaced by the item.
    if (!/^(null|None|undefined|-?\d+|''|""|0)$/.test(init.text)) continue;
    updates.push(`${name} = ${variable}${tables.terminator}`);
  }
  const indent = indentAt(text, last.startIndex);
  return updates.slice(0, UPDATES).map((u, rank) => ({
    start: last.endIndex,
    end: last.endIndex,
    text: '\n' + indent + u,
    family: 'update' as const,
    rank,
    description: `add ${quote(u)}`,
  }));
}
