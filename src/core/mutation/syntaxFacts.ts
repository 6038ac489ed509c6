// What the context-using families know about an edit site: its function's comparisons, literals, returns and calls.
import type { Node } from 'web-tree-sitter';
import type { FamilyTables } from './familyTables';
import type { SyntaxProfile } from './profileTypes';

/** What the families that draw on the function around a site need: the text, both tables and the selection. */
export interface FamilyContext {
  readonly text: string;
  readonly profile: SyntaxProfile;
  readonly tables: FamilyTables;
  /** The selection: an edit must stay inside it. */
  readonly start: number;
  readonly end: number;
  /** The facts of the function around `node` (the file, outside any function); computed once per function. */
  facts(node: Node): FunctionFacts;
  /** Property names of the whole file: accessed, declared as class fields, or object keys; in order of appearance. */
  fileProperties(): readonly string[];
}

/** Nodes of one function (nested functions excluded), in source order. */
export interface FunctionFacts {
  readonly scope: Node;
  /** `a < b`, `a === b`, Python `a < b < c`. */
  readonly comparisons: readonly Node[];
  readonly numbers: readonly Node[];
  /** Plain string literals: no template, f-string or docstring. */
  readonly strings: readonly Node[];
  /** The property nodes of member accesses that are not called (`p.start` yields `start`). */
  readonly properties: readonly Node[];
  readonly returns: readonly Node[];
  readonly calls: readonly Node[];
  /** `if (…) return/break/continue/throw` without `else`. */
  readonly guards: readonly Node[];
  /** Each variable's first value: its initialiser, first assignment or parameter default (a plain parameter: itself). */
  readonly initialisers: ReadonlyMap<string, Node>;
  /** Variables assigned again after their first value (`x = …`, `x += …`, `x++`). */
  readonly reassigned: ReadonlySet<string>;
  /** Receivers of a mutating method (`seen.add(k)`, `out.push(x)`) or of an indexed assignment (`d[k] = v`). */
  readonly mutated: ReadonlySet<string>;
}

/** Methods that change their receiver: a collection never passed to one of them is never filled. */
const mutators = new Set([
  'add', 'append', 'push', 'set', 'insert', 'update', 'extend', 'unshift', 'splice', 'discard', 'remove', 'pop',
  'clear', 'setdefault', 'appendleft', 'delete', 'shift',
]);

/** Assignment-like nodes and the field of their target. */
const assignments: Readonly<Record<string, string>> = {
  assignment_expression: 'left', augmented_assignment_expression: 'left', assignment: 'left', augmented_assignment: 'left',
  update_expression: 'argument', assignment_statement: 'left', inc_statement: '', dec_statement: '',
};
const parameterLists = new Set(['formal_parameters', 'parameters', 'lambda_parameters', 'parameter_list']);

/** Declarations: node type → [name field, value field]. */
const declarations: Readonly<Record<string, readonly [string, string]>> = {
  variable_declarator: ['name', 'value'], assignment_pattern: ['left', 'right'], default_parameter: ['name', 'value'],
  typed_default_parameter: ['name', 'value'], short_var_declaration: ['left', 'right'],
};

/** The innermost function around `node`, or the root when it is in none. */
export function enclosingFunction(node: Node, profile: SyntaxProfile): Node {
  let n: Node = node;
  for (let p = node.parent; p; p = p.parent) {
    if (profile.functions.has(p.type)) return p;
    n = p;
  }
  return n;
}

export function isComparison(node: Node, profile: SyntaxProfile): boolean {
  if (node.type === profile.comparison) return true;
  if (!profile.binary.has(node.type)) return false;
  const op = node.childForFieldName('operator')?.type ?? '';
  return Object.hasOwn(profile.relational, op);
}

/** The identifier naming what a call calls: `f` in `f(x)`, `push` in `xs.push(x)`, Java's method name. */
export function calleeName(call: Node, profile: SyntaxProfile): Node | null {
  const callee = call.childForFieldName('function');
  return (
    call.childForFieldName('name') ??
    (callee?.type === profile.identifier
      ? callee
      : callee?.childForFieldName('property') ?? callee?.childForFieldName('attribute') ?? callee?.childForFieldName('field') ?? null)
  );
}

/** The call's arguments, comments aside; undefined when it has no argument list the families understand. */
export function callArguments(call: Node): Node[] | undefined {
  const list = call.childForFieldName('arguments');
  if (!list || (list.type !== 'arguments' && list.type !== 'argument_list')) return undefined;
  return list.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
}

/** A string literal that is plain text: not a template, not a Python f-string or docstring. */
function isPlainString(node: Node, tables: FamilyTables): boolean {
  if (!tables.strings.has(node.type)) return false;
  if (node.namedChildren.some((c) => c?.type === 'interpolation' || c?.type === 'template_substitution')) return false;
  const parent = node.parent;
  return !(parent?.type === 'expression_statement' && parent.namedChildCount === 1);
}

/** Walks `scope` once, skipping nested functions and the insides of literals. */
export function collectFacts(scope: Node, profile: SyntaxProfile, tables: FamilyTables): FunctionFacts {
  const facts = {
    scope, comparisons: [] as Node[], numbers: [] as Node[], strings: [] as Node[], properties: [] as Node[], returns: [] as Node[], calls: [] as Node[], guards: [] as Node[],
    initialisers: new Map<string, Node>(), reassigned: new Set<string>(), mutated: new Set<string>(),
  };
  const declare = (name: Node | null, value: Node | null): void => {
    const target = name?.type === 'expression_list' ? name.namedChildren[0] : name;
    const v = value?.type === 'expression_list' ? value.namedChildren[0] : value;
    if (!target || !v || target.type !== profile.identifier) return;
    if (facts.initialisers.has(target.text)) facts.reassigned.add(target.text);
    else facts.initialisers.set(target.text, v);
  };
  const visit = (node: Node): void => {
    if (node.id !== scope.id && profile.functions.has(node.type)) return;
    if (tables.strings.has(node.type)) {
      if (isPlainString(node, tables)) facts.strings.push(node);
      return;
    }
    if (profile.opaque.has(node.type)) return;
    if (tables.numbers.has(node.type)) facts.numbers.push(node);
    if (isComparison(node, profile)) facts.comparisons.push(node);
    if (node.type === tables.returnStatement) facts.returns.push(node);
    if (node.type === profile.call) facts.calls.push(node);
    if (isGuard(node, tables)) facts.guards.push(node);
    // A parameter is declared by the call: assigning it later is a reassignment, not its declaration.
    if (parameterLists.has(node.type) && node.parent?.id === scope.id) {
      for (const p of node.namedChildren) {
        // A plain name, or the name of a typed one (Python `x: int`, TypeScript `x: number`, Java, Go).
        const name = p?.type === profile.identifier ? p : (p?.childForFieldName('name') ?? p?.childForFieldName('pattern') ?? p?.namedChildren[0]);
        if (name?.type === profile.identifier && !facts.initialisers.has(name.text)) facts.initialisers.set(name.text, name);
      }
    }
    const declared = declarations[node.type];
    if (declared) declare(node.childForFieldName(declared[0]), node.childForFieldName(declared[1]));
    const field = assignments[node.type];
    if (field !== undefined) {
      const target = field ? node.childForFieldName(field) : node.namedChildren[0];
      const first = target?.type === 'expression_list' ? target.namedChildren[0] : target;
      if (node.type === 'assignment' && node.childForFieldName('right')) declare(target, node.childForFieldName('right'));
      else if (first?.type === profile.identifier) facts.reassigned.add(first.text);
      if (first && first.type === profile.subscript[0]) facts.mutated.add(first.namedChildren[0]?.text ?? '');
    }
    if (node.type === profile.call) {
      const callee = node.childForFieldName('function');
      const name = calleeName(node, profile);
      if (callee && name && callee.id !== name.id && mutators.has(name.text)) facts.mutated.add(callee.namedChildren[0]?.text ?? '');
    }
    if (tables.member && node.type === tables.member.type) {
      const property = node.childForFieldName(tables.member.property);
      const parent = node.parent;
      const called = parent?.type === profile.call && parent.childForFieldName('function')?.id === node.id;
      if (property && !called) facts.properties.push(property);
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(scope);
  return facts;
}

/** The statements of a block, or of a statement whose only child block holds them (Go's `block`); else undefined. */
function blockStatements(node: Node, tables: FamilyTables): Node[] | undefined {
  if (tables.blocks.has(node.type)) return statementsOf(node);
  const inner = node.namedChildren.find((c) => c !== null && tables.blocks.has(c.type));
  if (inner) return statementsOf(inner);
  return node.namedChildCount === 0 && node.type === 'block' ? [] : undefined;
}

/** `if (…) return x;`, `if (…) { break; }`: an `if` without `else` whose body is one jump. */
function isGuard(node: Node, tables: FamilyTables): boolean {
  if (node.type !== tables.ifStatement || node.childForFieldName('alternative')) return false;
  const body = node.childForFieldName('consequence');
  if (!body) return false;
  if (tables.jumps.has(body.type)) return true;
  const inner = blockStatements(body, tables);
  return inner?.length === 1 && tables.jumps.has(inner[0].type);
}

/** Names a property could have in this file: `p.end` read anywhere, a field `end: int`, a key `{ end: 1 }`. */
export function collectPropertyNames(root: Node, profile: SyntaxProfile, tables: FamilyTables): string[] {
  const names: string[] = [];
  const add = (n: Node | null | undefined): void => {
    if (n && /^[A-Za-z_$][\w$]*$/.test(n.text) && !names.includes(n.text)) names.push(n.text);
  };
  const visit = (node: Node): void => {
    if (profile.opaque.has(node.type)) return;
    if (tables.member && node.type === tables.member.type) add(node.childForFieldName(tables.member.property));
    if (node.type === 'field_definition' || node.type === 'public_field_definition') add(node.childForFieldName('property'));
    if (node.type === 'pair') add(node.childForFieldName('key'));
    if (node.type === 'shorthand_property_identifier') add(node);
    // A Python class body's `end: int` or `end = 0`.
    if (node.type === 'assignment' && node.parent?.parent?.parent?.type === 'class_definition') add(node.childForFieldName('left'));
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return names;
}

/** Offset of the start of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** True when only spaces and tabs precede `offset` on its line. */
export function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/** The indentation of the line holding `offset`. */
export function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))?.[0] ?? '';
}

/** Code whose first line starts at indentation `from`, moved to `to`: every later line that starts with `from` too. */
export function reindent(code: string, from: string, to: string): string {
  if (from === to) return code;
  return code
    .split('\n')
    .map((line, i) => (i === 0 || !line.startsWith(from) ? line : to + line.slice(from.length)))
    .join('\n');
}

/** Whether text that an edit keeps in place between the nodes it moves is only spacing and separators, no comment. */
export function onlySeparators(between: string): boolean {
  return /^[\s;,]*$/.test(between);
}

/** The statements of a block, comments aside. */
export function statementsOf(block: Node): Node[] {
  return block.namedChildren.filter((n): n is Node => n !== null && !n.type.includes('comment'));
}

/** The identifiers in a node, by name: two statements that share one may depend on each other. */
export function identifierNames(node: Node, profile: SyntaxProfile): Set<string> {
  const names = new Set<string>();
  const visit = (n: Node): void => {
    if (n.type === profile.identifier) names.add(n.text);
    for (const child of n.namedChildren) if (child && !profile.opaque.has(child.type)) visit(child);
  };
  visit(node);
  return names;
}
