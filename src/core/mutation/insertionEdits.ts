// The statement family's insertions: a `break`, `continue` or `return` the code lacks, and a copy of a nearby guard.
import type { Node } from 'web-tree-sitter';
import { quote } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { identifierNames, indentAt, reindent, startsLine, statementsOf } from './syntaxFacts';

/** Returned values offered as a new `return`, nearest first. */
const RETURN_VALUES = 3;
/** Guards copied into each gap between statements, nearest first. */
const GUARD_COPIES = 2;

/** The statement owning a block: the `if`, `else`, loop or function it is the body of. */
export function ownerOf(block: Node, ctx: FamilyContext): Node | null {
  const parent = block.parent;
  // Go's statement_list sits in a `block`, which is what the `if` or loop holds.
  return parent && parent.type === 'block' && !ctx.tables.blocks.has(parent.type) ? parent.parent : parent;
}

/**
 * Whether a `break` or `continue` at `node` would belong to a loop of the same function: inside a loop's body, not
 * its Python `else` block (which runs after the loop).
 */
export function inLoop(node: Node, ctx: FamilyContext): boolean {
  for (let child = node, n = node.parent; n; child = n, n = n.parent) {
    if (ctx.tables.loops.has(n.type) && n.childForFieldName('body')?.id === child.id) return true;
    if (ctx.profile.functions.has(n.type)) return false;
  }
  return false;
}

/** Whether `statement` is the last one of a loop's body, where a `continue` after it would change nothing. */
function endsLoopBody(statement: Node, ctx: FamilyContext): boolean {
  const block = statement.parent;
  if (!block || !ctx.tables.blocks.has(block.type)) return false;
  const statements = statementsOf(block);
  const owner = ownerOf(block, ctx);
  return statements[statements.length - 1]?.id === statement.id && owner !== null && ctx.tables.loops.has(owner.type);
}

/** The `if` an `if`, `else` or `elif` body belongs to. */
function ifOf(owner: Node, ctx: FamilyContext): Node {
  return owner.type === ctx.tables.ifStatement ? owner : (owner.parent ?? owner);
}

/**
 * The jumps worth adding at the end of a body: `break` and `continue` in a loop (no `continue` where the loop would
 * go on anyway), `return` of a value returned elsewhere, or bare where the function has bare returns.
 */
function jumpsFor(block: Node, ctx: FamilyContext, loops: boolean, ifNode?: Node): string[] {
  const { tables } = ctx;
  const t = tables.terminator;
  const jumps = loops && inLoop(block, ctx) ? [`break${t}`] : [];
  if (jumps.length > 0 && !(ifNode && endsLoopBody(ifNode, ctx))) jumps.push(`continue${t}`);
  const values: string[] = [];
  let bare = false;
  const returns = [...ctx.facts(block).returns].sort((a, b) => Math.abs(a.startIndex - block.endIndex) - Math.abs(b.startIndex - block.endIndex));
  for (const r of returns) {
    const value = r.namedChildren.find((c) => c !== null && !c.type.includes('comment'));
    if (!value) bare = true;
    else if (!values.includes(value.text) && values.length < RETURN_VALUES) values.push(value.text);
  }
  jumps.push(...values.map((v) => `return ${v}${t}`));
  if (bare) jumps.push(`return${t}`);
  return jumps;
}

/** Statement insertions into `block`, whose statements are `statements`. */
export function insertionEdits(block: Node, statements: readonly Node[], ctx: FamilyContext): MutationEdit[] {
  const { tables, text, profile } = ctx;
  const out: MutationEdit[] = [];
  const last = statements[statements.length - 1];
  const owner = ownerOf(block, ctx);
  if (last && owner && !tables.jumps.has(last.type)) {
    const conditional = owner.type === tables.ifStatement || owner.type === tables.elseClause || owner.type === tables.elifClause;
    let jumps: string[] = [];
    if (conditional) jumps = jumpsFor(block, ctx, true, ifOf(owner, ctx));
    // A loop body may end in a `break` when an earlier `continue` skips the rows that should not stop it.
    else if (tables.loops.has(owner.type)) jumps = [`break${tables.terminator}`];
    else if (profile.functions.has(owner.type)) jumps = jumpsFor(block, ctx, false).filter((j) => j.startsWith('return '));
    const separator = startsLine(text, last.startIndex) ? '\n' + indentAt(text, last.startIndex) : tables.terminator ? ' ' : '; ';
    jumps.forEach((jump, rank) =>
      out.push({ start: last.endIndex, end: last.endIndex, text: separator + jump, family: 'statement', rank, description: `add ${quote(jump)}` }),
    );
  }
  guardCopies(statements, ctx, out);
  return out;
}

/** JavaScript's `if (c) x = i;` → `if (c) { x = i; break; }`: a body without braces gains its jump inside new ones. */
export function wrappedJumps(s: Node, ctx: FamilyContext): MutationEdit[] {
  const { tables } = ctx;
  const out: MutationEdit[] = [];
  if (s.type !== tables.ifStatement || !tables.terminator) return out;
  const body = s.childForFieldName('consequence');
  if (!body || !tables.simpleStatements.has(body.type) || tables.jumps.has(body.type) || body.text.includes('\n')) return out;
  jumpsFor(s, ctx, true, s).forEach((jump, rank) => {
    const wrapped = `{ ${body.text} ${jump} }`;
    out.push({ start: body.startIndex, end: body.endIndex, text: wrapped, family: 'statement', rank, description: `add ${quote(jump)}` });
  });
  return out;
}

/** A guard of the function (`if (…) return;`) copied into each gap between statements, nearest guards first. */
function guardCopies(statements: readonly Node[], ctx: FamilyContext, out: MutationEdit[]): void {
  const { tables, text } = ctx;
  if (statements.length === 0) return;
  const guards = ctx.facts(statements[0]).guards;
  if (guards.length === 0) return;
  const loop = inLoop(statements[0], ctx);
  const block = statements[0].parent;
  const owner = block ? ownerOf(block, ctx) : null;
  // A copy may only read what its new place sees: every name in it must appear in the statement it joins.
  const visible = owner ? identifierNames(owner, ctx.profile) : new Set<string>();
  for (let gap = 0; gap <= statements.length; gap++) {
    const before = statements[gap - 1];
    const after = statements[gap];
    if (before && tables.jumps.has(before.type)) continue; // unreachable
    const anchor = after ?? before;
    if (!startsLine(text, anchor.startIndex)) continue;
    const at = after ? after.startIndex : before.endIndex;
    const indent = indentAt(text, anchor.startIndex);
    const usable = guards
      .filter((g) => !(at > g.startIndex && at < g.endIndex) && g.text !== before?.text && g.text !== after?.text)
      .filter((g) => loop || !/^\s*(break|continue)\b/m.test(g.childForFieldName('consequence')?.text.replace(/^\{/, '') ?? ''))
      .filter((g) => [...identifierNames(g, ctx.profile)].every((n) => visible.has(n)))
      .sort((a, b) => Math.abs(a.startIndex - at) - Math.abs(b.startIndex - at))
      .slice(0, GUARD_COPIES);
    usable.forEach((g, rank) => {
      const copy = reindent(g.text, indentAt(text, g.startIndex), indent);
      out.push({
        start: at,
        end: at,
        text: after ? copy + '\n' + indent : '\n' + indent + copy,
        family: 'statement',
        rank: rank + 1,
        description: `copy ${quote(g.text)} ${after ? `before ${quote(after.text)}` : `after ${quote(before.text)}`}`,
      });
    });
  }
}
