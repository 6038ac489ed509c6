// The call families: a method or function replaced by a sibling of the same arity, an argument dropped or added.
import type { Node } from 'web-tree-sitter';
import { quote, replacement } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';
import { callArguments, calleeName } from './syntaxFacts';

/** Arguments of other calls offered as an extra argument, nearest first. */
const ADDED_ARGUMENTS = 2;

/** The siblings of a name: the other names of every group it is in, in order. */
function siblingsOf(name: string, groups: ReadonlyArray<readonly string[]>): string[] {
  const out: string[] = [];
  for (const group of groups) {
    if (!group.includes(name)) continue;
    for (const other of group) if (other !== name && !out.includes(other)) out.push(other);
  }
  return out;
}

/** Every call edit `node` offers when it is a call. */
export function callEditsAt(node: Node, ctx: FamilyContext): MutationEdit[] {
  if (node.type !== ctx.profile.call) return [];
  const out: MutationEdit[] = [];
  const name = calleeName(node, ctx.profile);
  if (name) {
    siblingsOf(name.text, ctx.tables.siblingCalls).forEach((other, rank) =>
      out.push(replacement(name.startIndex, name.endIndex, name.text, other, 'sibling-call', rank)),
    );
  }
  const args = callArguments(node);
  if (!args) return out;
  if (name) rewrites(node, name, args, ctx, out);
  if (args.length > 1) {
    args.forEach((arg, i) => {
      // The argument and one separator go: the comma after it, or before it for the last one.
      const [start, end] = i + 1 < args.length ? [arg.startIndex, args[i + 1].startIndex] : [args[i - 1].endIndex, arg.endIndex];
      out.push({ start, end, text: '', family: 'argument', rank: i + 1 < args.length ? 1 : 0, description: `drop the argument ${quote(arg.text)}` });
    });
  }
  addedArguments(node, args, ctx, out);
  return out;
}

/** `xs.append(x)` → `xs.insert(0, x)`, `xs.sort()` → `sorted(xs)`: a sibling with another shape, per language. */
function rewrites(call: Node, name: Node, args: readonly Node[], ctx: FamilyContext, out: MutationEdit[]): void {
  const receiver = call.childForFieldName('function')?.namedChildren[0];
  if (!receiver || receiver.id === name.id) return;
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  const rules = ctx.tables.rewrites.filter((r) => r.name === name.text && r.arity === positional.length && (r.first === undefined || positional[0]?.text === r.first));
  rules.forEach((rule, rank) => {
    const text = rule.to(receiver.text, args.map((a) => a.text));
    out.push(replacement(call.startIndex, call.endIndex, call.text, text, 'sibling-call', siblingsOf(name.text, ctx.tables.siblingCalls).length + rank));
  });
}

/** Calls whose arguments are fixed by the language: adding one from elsewhere is never the fix. */
const fixedArity = new Set([
  'len', 'str', 'int', 'float', 'bool', 'abs', 'repr', 'type', 'list', 'set', 'dict', 'tuple', 'String', 'Number',
  'Boolean', 'isinstance', 'isNaN', 'isFinite', 'parseFloat', 'ord', 'chr', 'floor', 'ceil', 'trunc', 'sqrt',
  'lower', 'upper', 'strip', 'trim', 'toUpperCase', 'toLowerCase', 'keys', 'values', 'items', 'entries',
  'push', 'append', 'add', 'has', 'includes', 'startsWith', 'endsWith', 'startswith', 'endswith', 'get', 'pop',
]);

/**
 * `f(a)` → `f(a, b)`: first the arguments other calls of the same function pass beyond this one's, then arguments of
 * other calls in the function (a recursive call that forgot a bound, a `sort` without its key).
 */
function addedArguments(call: Node, args: readonly Node[], ctx: FamilyContext, out: MutationEdit[]): void {
  const list = call.childForFieldName('arguments');
  const close = list?.lastChild;
  if (!list || !close || close.type !== ')') return;
  const callee = call.childForFieldName('function')?.text ?? calleeName(call, ctx.profile)?.text;
  const present = new Set(args.map((a) => a.text));
  const extra: string[] = [];
  const others = ctx.facts(call).calls.filter((c) => c.id !== call.id);
  for (const other of others) {
    const otherCallee = other.childForFieldName('function')?.text ?? calleeName(other, ctx.profile)?.text;
    const otherArgs = callArguments(other);
    if (otherCallee !== callee || !otherArgs || otherArgs.length <= args.length) continue;
    for (const a of otherArgs.slice(args.length)) if (!present.has(a.text) && !extra.includes(a.text)) extra.push(a.text);
  }
  const fixed = fixedArity.has(calleeName(call, ctx.profile)?.text ?? '');
  const nearby = fixed ? [] : others
    .sort((a, b) => Math.abs(a.startIndex - call.startIndex) - Math.abs(b.startIndex - call.startIndex))
    .flatMap((c) => callArguments(c) ?? [])
    .filter((a) => a.type === ctx.profile.identifier || a.type === ctx.tables.member?.type);
  for (const a of nearby) {
    if (extra.length >= ADDED_ARGUMENTS) break;
    if (!present.has(a.text) && !extra.includes(a.text) && !a.text.includes('\n')) extra.push(a.text);
  }
  // Keyword and unpacked arguments (`*args`, `**kw`) must stay last in Python: a positional one goes before them.
  const keyword = args.find((a) => a.type === 'keyword_argument' || a.type === 'list_splat' || a.type === 'dictionary_splat');
  extra.forEach((e, rank) => {
    const positional = !/^\w+\s*=[^=]/.test(e);
    if (keyword && positional) {
      out.push({ start: keyword.startIndex, end: keyword.startIndex, text: `${e}, `, family: 'argument', rank, description: `add the argument ${quote(e)}` });
    } else {
      const at = args.length > 0 ? args[args.length - 1].endIndex : close.startIndex;
      out.push({ start: at, end: at, text: args.length > 0 ? `, ${e}` : e, family: 'argument', rank, description: `add the argument ${quote(e)}` });
    }
  });
}
