// The identifier family: a variable replaced by another variable visible in the enclosing function.
import type { Node } from 'web-tree-sitter';
import { replacement } from './edit';
import type { MutationEdit } from './edit';
import type { SyntaxProfile } from './profileTypes';

/** Receivers are variables too, but swapping `self` for a local is never the fix. */
const neverReplaced = new Set(['self', 'cls', 'this', 'undefined', 'arguments', '_']);

/** Pattern nodes whose children are all names being declared. */
const patternContainers = new Set([
  'object_pattern', 'array_pattern', 'rest_pattern', 'pattern_list', 'tuple_pattern', 'list_pattern',
  'list_splat_pattern', 'dictionary_splat_pattern', 'parenthesized_expression', 'formal_parameters', 'parameters',
  'lambda_parameters', 'as_pattern_target', 'inferred_parameters', 'parameter_list', 'expression_list',
]);

/** Every child of `node` in `field` (Go declares several names in one field: `a, b int`). */
function fieldChildren(node: Node, field: string): Node[] {
  const found: Node[] = [];
  node.children.forEach((child, i) => {
    if (child && node.fieldNameForChild(i) === field) found.push(child);
  });
  return found;
}

/** The names a pattern declares: `a`, `[a, b]`, `{ a, b: c = 1 }`, `(a, *b)`, `x: int = 0`. */
function declaredNames(pattern: Node, profile: SyntaxProfile, into: Node[]): void {
  switch (pattern.type) {
    case profile.identifier:
    case 'shorthand_property_identifier_pattern':
      into.push(pattern);
      return;
    case 'assignment_pattern':
    case 'object_assignment_pattern':
    case 'typed_parameter':
      {
        const left = pattern.childForFieldName('left') ?? pattern.namedChildren[0];
        if (left) declaredNames(left, profile, into);
      }
      return;
    case 'required_parameter':
    case 'optional_parameter':
      {
        const inner = pattern.childForFieldName('pattern');
        if (inner) declaredNames(inner, profile, into);
      }
      return;
    case 'default_parameter':
    case 'typed_default_parameter':
    case 'formal_parameter': // Java
    case 'catch_formal_parameter':
    case 'parameter_declaration': // Go
    case 'variadic_parameter_declaration':
      for (const name of fieldChildren(pattern, 'name')) declaredNames(name, profile, into);
      return;
    case 'pair_pattern':
      {
        const value = pattern.childForFieldName('value');
        if (value) declaredNames(value, profile, into);
      }
      return;
    default:
      if (patternContainers.has(pattern.type)) {
        for (const child of pattern.namedChildren) if (child && child.type !== 'type_annotation') declaredNames(child, profile, into);
      }
  }
}

/** Nodes whose children are all parameters. */
const PARAMETER_LISTS: ReadonlySet<string> = new Set(['formal_parameters', 'parameters', 'lambda_parameters', 'parameter_list']);

/**
 * Declarations whose named field binds variables at a binding site (a parameter, `let x`, a loop variable):
 * the names are candidates elsewhere, but replacing them where they are declared would break the code.
 */
const BINDING_SITE_FIELD: Readonly<Record<string, string>> = {
  variable_declarator: 'name',
  for_in_statement: 'left', // JS `for (const x of xs)`
  for_statement: 'left', // Python `for x in xs:`; a JS C-style loop declares through its variable_declarator
  for_in_clause: 'left', // Python comprehensions
  catch_clause: 'parameter',
  lambda_expression: 'parameters', // Java
  enhanced_for_statement: 'name',
  catch_formal_parameter: 'name',
  var_spec: 'name', // Go
  const_spec: 'name',
  short_var_declaration: 'left',
  range_clause: 'left',
  as_pattern: 'alias',
};

/** Variables declared directly in `scope` (not in functions nested inside it), in source order. */
function declarationsIn(scope: Node, profile: SyntaxProfile): { names: Node[]; bindingSites: Node[] } {
  const names: Node[] = [];
  const bindingSites: Node[] = []; // parameters, `let x`, loop variables: replacing them there would break the code
  const visit = (node: Node, isScope: boolean): void => {
    if (!isScope && (profile.functions.has(node.type) || node.type === 'class_definition' || node.type === 'class_body')) return;
    const declared: Node[] = [];
    const binding = (field: string): void => {
      for (const target of fieldChildren(node, field)) declaredNames(target, profile, declared);
    };
    const siteField = BINDING_SITE_FIELD[node.type];
    if (PARAMETER_LISTS.has(node.type)) {
      declaredNames(node, profile, declared);
      bindingSites.push(...declared);
    } else if (node.type === 'arrow_function') {
      // `x => …` binds `parameter`; `(x, y) => …` binds through its formal_parameters child.
      if (node.childForFieldName('parameter')) {
        binding('parameter');
        bindingSites.push(...declared);
      }
    } else if (siteField) {
      binding(siteField);
      bindingSites.push(...declared);
    } else if (node.type === 'assignment' || node.type === 'augmented_assignment') {
      binding('left'); // Python: assigning declares; the target stays replaceable (a wrong variable assigned)
    } else if (node.type === 'named_expression') {
      binding('name');
    }
    names.push(...declared);
    for (const child of node.namedChildren) if (child) visit(child, false);
  };
  visit(scope, true);
  return { names, bindingSites };
}

/** Enclosing functions, innermost first, then the file itself. */
function scopesAround(node: Node, profile: SyntaxProfile): Node[] {
  const scopes: Node[] = [];
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (profile.functions.has(n.type) || n.parent === null) scopes.push(n);
  }
  return scopes;
}

/** Where an identifier is not a variable read or written: a callee, an attribute, a keyword argument's name. */
function isVariableUse(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  const field = (name: string): boolean => parent.childForFieldName(name)?.startIndex === node.startIndex;
  if ((parent.type === 'call' || parent.type === 'call_expression') && field('function')) return false;
  if (parent.type === 'attribute' && field('attribute')) return false;
  if ((parent.type === 'method_invocation' && field('name')) || (parent.type === 'field_access' && field('field'))) return false;
  if (parent.type === 'keyword_argument' && field('name')) return false;
  if (parent.type.includes('import') || parent.type.endsWith('_declaration') || parent.type.endsWith('_definition')) return false;
  if (parent.type === 'labeled_statement' || parent.type === 'break_statement' || parent.type === 'continue_statement') return false;
  return true;
}

/**
 * Identifier edits for every variable use in `identifiers` (the identifier nodes inside the selection).
 * Candidates are the variables of the innermost enclosing function first, then of the outer ones; the file's
 * top-level variables count only for code outside any function, since module-wide names (imports, helpers)
 * are rarely the variable that was meant.
 */
export function identifierEdits(identifiers: readonly Node[], profile: SyntaxProfile): MutationEdit[] {
  const out: MutationEdit[] = [];
  const cache = new Map<number, ReturnType<typeof declarationsIn>>();
  const declarations = (scope: Node): ReturnType<typeof declarationsIn> => {
    let found = cache.get(scope.id);
    if (!found) cache.set(scope.id, (found = declarationsIn(scope, profile)));
    return found;
  };
  const sites: Array<{ site: Node; visible: string[]; use: UsageKind }> = [];
  const kinds = new Map<string, Set<UsageKind>>();
  for (const site of identifiers) {
    const name = site.text;
    if (neverReplaced.has(name) || !isVariableUse(site)) continue;
    const scopes = scopesAround(site, profile);
    const usable = scopes.length > 1 ? scopes.slice(0, -1) : scopes;
    const visible: string[] = [];
    let isBindingSite = false;
    for (const scope of usable) {
      const { names, bindingSites } = declarations(scope);
      if (bindingSites.some((b) => b.startIndex === site.startIndex)) isBindingSite = true;
      for (const n of names) if (!visible.includes(n.text) && !neverReplaced.has(n.text)) visible.push(n.text);
    }
    // Only variables we can see declared are replaced: a global or builtin (`Math`, `len`) is not a variable slip.
    if (isBindingSite || !visible.includes(name)) continue;
    let used = kinds.get(name);
    if (!used) kinds.set(name, (used = new Set()));
    const use = usageKind(site);
    used.add(use);
    sites.push({ site, visible, use });
  }
  for (const { site, visible, use } of sites) {
    const name = site.text;
    const own = kinds.get(name);
    visible
      .filter((other) => other !== name)
      .forEach((other, rank) => {
        const edit = replacement(site.startIndex, site.endIndex, name, other, 'identifier', rank);
        // Used otherwise in the selection (`box.top` → `w.top` for a number `w`): a slip of that kind fixes a bug only
        // when the types were wrong too, so the prior puts it later. That is so when the other variable is never used
        // the way this site uses it, or when every use of the replaced one is of one kind the other's are not; a
        // variable used both ways (`values[0]`, `best = values`) may be the very slip of kind to be undone.
        const otherKinds = kinds.get(other);
        const mismatch = own && otherKinds && (!otherKinds.has(use) || (own.size === 1 && !sameKinds(own, otherKinds)));
        out.push(mismatch ? { ...edit, kindMismatch: true } : edit);
      });
  }
  return out;
}

/** How a variable is used at one place: as an object (a member, an index or a method taken from it) or as a value. */
type UsageKind = 'object' | 'value';

/** Parent types and the field holding the object a member, element or method is taken from, across the grammars. */
const OBJECT_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['member_expression', 'object'], ['subscript_expression', 'object'], ['attribute', 'object'], ['subscript', 'value'],
  ['field_access', 'object'], ['method_invocation', 'object'], ['array_access', 'array'], ['selector_expression', 'operand'],
  ['index_expression', 'operand'],
];

const sameKinds = (a: ReadonlySet<UsageKind>, b: ReadonlySet<UsageKind>) => a.size === b.size && [...a].every((k) => b.has(k));

function usageKind(node: Node): UsageKind {
  const parent = node.parent;
  if (!parent) return 'value';
  const isObject = OBJECT_FIELDS.some(([type, field]) => parent.type === type && parent.childForFieldName(field)?.startIndex === node.startIndex);
  return isObject ? 'object' : 'value';
}
