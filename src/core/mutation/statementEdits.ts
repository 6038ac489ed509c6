// The statement family's edits inside one block: delete a statement, move it across its neighbour or in or out of
// the compound statement next to it; and, from their own modules, the insertions (jumps, guard copies) and the update
// a loop lacks.
import type { Node } from 'web-tree-sitter';
import { quote } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { identifierNames, indentAt, lineStart, onlySeparators, reindent, startsLine, statementsOf } from './syntaxFacts';
import { inLoop, insertionEdits, ownerOf, wrappedJumps } from './insertionEdits';
import { updateEdits } from './updateEdits';

/**
 * Every statement edit of `node` when it is a block of a function (or an `if` whose body lacks braces): deletions,
 * moves, insertions, and in a loop's body the update it lacks.
 */
export function statementEditsAt(node: Node, ctx: FamilyContext): MutationEdit[] {
  if (node.type === ctx.tables.ifStatement) return wrappedJumps(node, ctx);
  if (!ctx.tables.blocks.has(node.type) || node.parent?.type === 'class_definition') return [];
  const statements = statementsOf(node);
  const out: MutationEdit[] = [];
  if (statements.length > 1) {
    // A variable's first assignment is its declaration: without it every later use fails.
    for (const s of statements) if (ctx.tables.simpleStatements.has(s.type) && declaredIn(s, ctx).length === 0) out.push(deletion(s, ctx));
  }
  for (let i = 0; i + 1 < statements.length; i++) {
    const edit = swapWithNext(statements[i], statements[i + 1], ctx);
    if (edit) out.push(edit);
  }
  statements.forEach((s, i) => moves(s, statements[i + 1], ctx, out));
  out.push(...insertionEdits(node, statements, ctx));
  const owner = ownerOf(node, ctx);
  if (owner && ctx.tables.loops.has(owner.type)) out.push(...updateEdits(node, statements, owner, ctx));
  return out;
}

/** The variables whose first value `statement` gives (Python's first assignment, JavaScript's `let x = …`). */
function declaredIn(statement: Node, ctx: FamilyContext): string[] {
  const names: string[] = [];
  for (const [name, value] of ctx.facts(statement).initialisers) {
    if (value.startIndex >= statement.startIndex && value.endIndex <= statement.endIndex) names.push(name);
  }
  return names;
}

/** Deletes a statement, with its line when it has one to itself and the line break is inside the selection. */
function deletion(s: Node, ctx: FamilyContext): MutationEdit {
  const { text } = ctx;
  let start = s.startIndex;
  let end = s.endIndex;
  const rest = /^[ \t]*(?:\r?\n|$)/.exec(text.slice(end));
  if (startsLine(text, start) && rest) {
    const from = lineStart(text, start);
    if (end + rest[0].length <= ctx.end) [start, end] = [from, end + rest[0].length];
    else if (from - 1 >= ctx.start) [start, end] = [from - 1, end];
    else if (from >= ctx.start) start = from;
  }
  return { start, end, text: '', family: 'statement', rank: 0, description: `delete ${quote(s.text)}` };
}

/** `a; b` → `b; a` when both start their lines (or share one) and touch a common variable (else it changes nothing). */
function swapWithNext(a: Node, b: Node, ctx: FamilyContext): MutationEdit | undefined {
  const { tables, profile, text } = ctx;
  if (!tables.simpleStatements.has(a.type) && !tables.simpleStatements.has(b.type)) return undefined;
  if (startsLine(text, a.startIndex) !== startsLine(text, b.startIndex) || !onlySeparators(text.slice(a.endIndex, b.startIndex))) return undefined;
  const names = identifierNames(b, profile);
  if (![...identifierNames(a, profile)].some((n) => names.has(n))) return undefined;
  // `x = 0; use(x)` swapped would use `x` before it exists.
  if (declaredIn(a, ctx).some((n) => names.has(n))) return undefined;
  return {
    start: a.startIndex,
    end: b.endIndex,
    text: b.text + text.slice(a.endIndex, b.startIndex) + a.text,
    family: 'statement',
    rank: 0,
    description: `move ${quote(b.text)} before ${quote(a.text)}`,
  };
}

/** The block of statements a loop or an `if` without `else` runs (Go's block holds a statement_list). */
function bodyOf(compound: Node, ctx: FamilyContext): Node | undefined {
  const { tables } = ctx;
  const isIf = compound.type === tables.ifStatement;
  if (!isIf && !tables.loops.has(compound.type)) return undefined;
  if (compound.childForFieldName('alternative')) return undefined;
  let body = compound.childForFieldName(isIf ? 'consequence' : 'body');
  if (body && !tables.blocks.has(body.type)) body = body.namedChildren.find((c) => c !== null && tables.blocks.has(c.type)) ?? null;
  return body && tables.blocks.has(body.type) ? body : undefined;
}

/**
 * A statement at the wrong depth: the last statement of a loop's or an `if`'s body moved after it, and the
 * statement after one moved to the end of its body (a `return` inside the loop, a count outside the `if`).
 */
function moves(compound: Node, next: Node | undefined, ctx: FamilyContext, out: MutationEdit[]): void {
  const { text, tables } = ctx;
  const body = bodyOf(compound, ctx);
  if (!body) return;
  const inner = statementsOf(body);
  const last = inner[inner.length - 1];
  if (!last || !startsLine(text, last.startIndex) || !startsLine(text, compound.startIndex)) return;
  const outer = indentAt(text, compound.startIndex);
  const nested = indentAt(text, last.startIndex);
  const before = inner[inner.length - 2];
  // A `break` or `continue` moved out of the last loop around it would not compile.
  const loopJump = /^(break|continue)_statement$/.test(last.type);
  if (before && tables.simpleStatements.has(last.type) && onlySeparators(text.slice(before.endIndex, last.startIndex)) && (!loopJump || inLoop(compound, ctx))) {
    out.push({
      start: before.endIndex,
      end: compound.endIndex,
      text: text.slice(last.endIndex, compound.endIndex) + '\n' + outer + reindent(last.text, nested, outer),
      family: 'statement',
      rank: 1,
      description: `move ${quote(last.text)} out of ${quote(compound.text.split('\n')[0])}`,
    });
  }
  const kept = next && onlySeparators(text.slice(compound.endIndex, next.startIndex));
  if (next && kept && tables.simpleStatements.has(next.type) && startsLine(text, next.startIndex) && !tables.jumps.has(last.type)) {
    out.push({
      start: last.endIndex,
      end: next.endIndex,
      text: '\n' + nested + reindent(next.text, outer, nested) + text.slice(last.endIndex, compound.endIndex),
      family: 'statement',
      rank: 1,
      description: `move ${quote(next.text)} into ${quote(compound.text.split('\n')[0])}`,
    });
  }
}
