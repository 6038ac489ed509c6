// Generates the mutants of a selection (single edits, then pairs of edits), likeliest first, without duplicates or syntax errors.
import type { Node, Parser, Tree } from 'web-tree-sitter';
import { callEditsAt } from './callEdits';
import { conditionEditsAt } from './conditionEdits';
import { combined, isOneToken } from './edit';
import type { MutationEdit, MutationFamily } from './edit';
import { familyTablesFor } from './familyTables';
import { gapEditsAt } from './gapEdits';
import { grammarFor, parserFor } from './grammars';
import { identifierEdits } from './identifierEdits';
import { literalEditsAt } from './literalEdits';
import { operatorEditsAt } from './operatorEdits';
import { pairEditsAt } from './pairEdits';
import { countSites, editBits, lineBitsOf } from './prior';
import { countSyntaxErrors, errorsAfterEdit, lineAt, lineStartsOf } from './parseCheck';
import { profileFor } from './profiles';
import { statementEditsAt } from './statementEdits';
import { collectFacts, collectPropertyNames, enclosingFunction } from './syntaxFacts';
import type { FamilyContext, FunctionFacts } from './syntaxFacts';

/** What to mutate. Offsets are UTF-16 code units into `fileText`; [start, end) is the selection. */
export interface MutationInput {
  /** VS Code language id (`javascript`, `typescript`, `typescriptreact`, `python`, …). */
  readonly languageId: string;
  readonly fileText: string;
  readonly start: number;
  readonly end: number;
  /**
   * 1-based lines the failing tests point at, most suspicious first, tied lines top to bottom (as fault
   * localisation lists them); mutants on them come first, the likeliest lines' likeliest edits first.
   */
  readonly hintLines?: readonly number[];
  /**
   * Stop once this many mutants are kept (default: no limit). Each kept mutant costs a re-parse, so a
   * caller that takes the first n of a huge selection need not check them all; the rest count as `unchecked`.
   */
  readonly limit?: number;
}

/** One mutant of the selection. */
export interface Mutant {
  /** The replacement for `fileText.slice(start, end)`. */
  readonly text: string;
  /** `` `<` → `<=` on line 12 `` */
  readonly label: string;
  readonly family: MutationFamily;
  /** 1-based line of the edit in the file. */
  readonly line: number;
  /** The edit in file offsets. */
  readonly edit: MutationEdit;
}

/** The counts a run reports: how many edits were found and why some were not kept. */
export interface MutationStats {
  /** False when the language has no grammar here; then every count is 0. */
  readonly supported: boolean;
  /** Edits the families produced inside the selection. */
  readonly generated: number;
  /** Edits whose result equals an earlier mutant's (or the original). */
  readonly duplicates: number;
  /** Edits dropped because the file no longer parsed (more ERROR/MISSING nodes than the original). */
  readonly unparsable: number;
  /** Mutants kept: generated − duplicates − unparsable − unchecked. */
  readonly candidates: number;
  /** Edits after the `limit`-th kept mutant, not checked (0 unless a limit was reached). */
  readonly unchecked: number;
  /**
   * The generator's own time: the parse and the syntax checks, then the ordering, not a wait between them (a parse
   * started early, or on the worker thread, waits for the hints).
   */
  readonly durationMs: number;
}

export interface MutationResult {
  /** Every kept mutant, in the order to try them. */
  readonly mutants: readonly Mutant[];
  readonly stats: MutationStats;
}

/** Visits the nodes that overlap [start, end), skipping comments and strings (never mutated). */
export function overlapping(root: Node, start: number, end: number, opaque: ReadonlySet<string>, visit: (node: Node) => void): void {
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      const overlaps = node.endIndex > start && node.startIndex < end;
      if (overlaps && !opaque.has(node.type)) visit(node);
      if (overlaps && !opaque.has(node.type) && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Every edit the families offer inside [start, end). */
function editsOf(root: Node, fileText: string, start: number, end: number, ctx: FamilyContext): MutationEdit[] {
  const { profile } = ctx;
  const raw: MutationEdit[] = [];
  const identifiers: Node[] = [];
  overlapping(root, start, end, profile.opaque, (node) => {
    raw.push(...operatorEditsAt(node, { text: fileText, profile }));
    raw.push(...conditionEditsAt(node, ctx), ...callEditsAt(node, ctx), ...literalEditsAt(node, ctx), ...gapEditsAt(node, ctx));
    raw.push(...statementEditsAt(node, ctx), ...pairEditsAt(node, ctx));
    if (node.type === profile.identifier && node.startIndex >= start && node.endIndex <= end) identifiers.push(node);
  });
  raw.push(...identifierEdits(identifiers, profile));
  return raw.filter((e) => e.start >= start && e.end <= end);
}

/** Sites whose single edits are combined in twos, likeliest first, and alternatives of each site combined. */
const TOP_SITES = 3;
const ALTERNATIVES_PER_SITE = 2;

/**
 * Two-edit combinations of the likeliest sites (the first sites of the order, so the lines the tests point at):
 * the bugs a single edit cannot fix are most often two small ones close to the failure. Each of the top sites'
 * first alternatives is combined with each other site's; the pair family's cost puts them after every single edit
 * of those lines.
 */
function topSiteCombinations(ordered: readonly MutationEdit[], fileText: string): MutationEdit[] {
  const sites = new Map<string, MutationEdit[]>();
  for (const edit of ordered) {
    if (!isOneToken(edit.family)) continue;
    const site = `${edit.start}:${edit.end}`;
    const alternatives = sites.get(site);
    if (alternatives) {
      if (alternatives.length < ALTERNATIVES_PER_SITE) alternatives.push(edit);
    } else if (sites.size < TOP_SITES) {
      sites.set(site, [edit]);
    }
  }
  const groups = [...sites.values()];
  const out: MutationEdit[] = [];
  for (let i = 0; i < groups.length; i++) {
    for (let j = i + 1; j < groups.length; j++) {
      for (const [ra, a] of groups[i].entries()) {
        for (const [rb, b] of groups[j].entries()) {
          const pair = combined(fileText, a, b, ra + rb);
          if (pair) out.push(pair);
        }
      }
    }
  }
  return out;
}

/**
 * The edits with their lines, likeliest first: each costs its bits under the prior (`prior.ts`: its line's place in
 * the hints, its class's share of real one-token bugs spread over the line's sites of that class, its alternative),
 * so the top lines' likeliest edits interleave before any line's unlikely ones; the likeliest sites' two-edit
 * combinations join the single edits.
 */
function ordered(edits: readonly MutationEdit[], fileText: string, lineStarts: readonly number[], hintLines: readonly number[] | undefined) {
  const lineBits = lineBitsOf(hintLines);
  const counts = countSites(edits.map((edit) => ({ edit, line: lineAt(lineStarts, edit.start) })));
  const keyOf = (edit: MutationEdit, index: number) => {
    const line = lineAt(lineStarts, edit.start);
    // A pair is as likely as its less likely site.
    const lines = edit.family === 'pair' ? Math.max(lineBits(line), lineBits(lineAt(lineStarts, Math.max(edit.start, edit.end - 1)))) : lineBits(line);
    return { edit, line, key: [editBits(edit, line, counts) + lines, lines, edit.start, index] };
  };
  const byKey = (a: { key: number[] }, b: { key: number[] }) => {
    for (let i = 0; i < a.key.length; i++) if (Math.abs(a.key[i] - b.key[i]) > 1e-9) return a.key[i] - b.key[i];
    return 0;
  };
  const singles = edits.map(keyOf).sort(byKey);
  const pairs = topSiteCombinations(singles.map((k) => k.edit), fileText);
  return [...singles, ...pairs.map((edit, i) => keyOf(edit, edits.length + i))].sort(byKey);
}

/**
 * A selection parsed, its edits found and the first of them checked for syntax: everything of generateMutants that
 * does not depend on the hint lines, so it can run while the baseline, whose failures give the hints, still runs.
 * generateMutants takes it over (and frees its tree); `release` frees it when it is never used.
 */
export interface PreparedSelection {
  readonly edits: readonly MutationEdit[];
  /** How long the parse and the checks took. */
  readonly workMs: number;
  /** Whether the file still parses as well as before with `edit`: checked ahead for the first edits, else now. */
  parses(edit: MutationEdit): boolean;
  release(): void;
}

export type SelectionInput = Omit<MutationInput, 'hintLines'>;

/** How long prepareSelection's syntax checks hold the thread before letting other work run. */
const CHECK_SLICE_MS = 10;

/**
 * Parses `input`'s file and finds the selection's edits; checks the first `limit` of them (in the file's order: a
 * selection has fewer edits than that, but for the largest) for syntax. Undefined where the language has no grammar
 * or the parser gives no tree.
 */
export async function prepareSelection(input: SelectionInput): Promise<PreparedSelection | undefined> {
  const grammar = grammarFor(input.languageId);
  if (!grammar) return undefined;
  const began = performance.now();
  const { fileText, start, end } = input;
  const profile = profileFor(grammar);
  const parser = await parserFor(grammar);
  const tree = parser.parse(fileText);
  if (!tree) return undefined;
  try {
    const tables = familyTablesFor(grammar);
    const factsCache = new Map<number, FunctionFacts>();
    let properties: readonly string[] | undefined;
    const ctx: FamilyContext = {
      text: fileText,
      profile,
      tables,
      start,
      end,
      facts(node) {
        const scope = enclosingFunction(node, profile);
        let found = factsCache.get(scope.id);
        if (!found) factsCache.set(scope.id, (found = collectFacts(scope, profile, tables)));
        return found;
      },
      fileProperties: () => (properties ??= collectPropertyNames(tree.rootNode, profile, tables)),
    };
    const edits = editsOf(tree.rootNode, fileText, start, end, ctx);
    const check = syntaxCheck(parser, tree, fileText);
    const checked = new Map<MutationEdit, boolean>();
    let slice = performance.now();
    for (const edit of edits.slice(0, input.limit ?? edits.length)) {
      checked.set(edit, check(edit));
      // In slices: the baseline this runs beside must not wait for the engine's thread to start or to be read.
      if (performance.now() - slice > CHECK_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    return { edits, workMs: performance.now() - began, parses: (edit) => checked.get(edit) ?? check(edit), release: () => tree.delete() };
  } catch (error) {
    tree.delete();
    throw error;
  }
}

/** Whether an edit leaves the file parsing no worse than it does (no more ERROR or MISSING nodes). */
function syntaxCheck(parser: Parser, tree: Tree, fileText: string): (edit: MutationEdit) => boolean {
  const lineStarts = lineStartsOf(fileText);
  const originalErrors = countSyntaxErrors(tree.rootNode);
  return (edit) => errorsAfterEdit(parser, tree, fileText, lineStarts, edit) <= originalErrors;
}

/**
 * All mutants of the selection, likeliest first under the prior of `prior.ts` (the hinted lines' tiers, the bug
 * class's share, the sites of that class on the line, the alternative); ties go by hint rank and position. The order
 * depends only on the input, so it is the same on every call. `prepared` (from prepareSelection on the same input) is
 * the parse and checks made ahead; it is released here.
 */
export async function generateMutants(input: MutationInput, prepared?: Promise<PreparedSelection | undefined>): Promise<MutationResult> {
  const began = performance.now();
  const none = (supported: boolean): MutationResult => ({
    mutants: [],
    stats: { supported, generated: 0, duplicates: 0, unparsable: 0, candidates: 0, unchecked: 0, durationMs: performance.now() - began },
  });
  if (!grammarFor(input.languageId)) return none(false);
  const selection = await (prepared ?? prepareSelection(input));
  if (!selection) return none(true);
  const ordering = performance.now();
  try {
    const { fileText, start, end } = input;
    const lineStarts = lineStartsOf(fileText);
    const keyed = ordered(selection.edits, fileText, lineStarts, input.hintLines);
    const seen = new Set<string>([fileText.slice(start, end)]);
    const mutants: Mutant[] = [];
    let duplicates = 0;
    let unparsable = 0;
    let unchecked = 0;
    for (const [position, { edit, line }] of keyed.entries()) {
      if (input.limit !== undefined && mutants.length >= input.limit) {
        unchecked = keyed.length - position;
        break;
      }
      const text = fileText.slice(start, edit.start) + edit.text + fileText.slice(edit.end, end);
      if (seen.has(text)) {
        duplicates++;
        continue;
      }
      seen.add(text);
      if (!selection.parses(edit)) {
        unparsable++;
        continue;
      }
      mutants.push({ text, label: `${edit.description} on line ${line}`, family: edit.family, line, edit });
    }
    const stats: MutationStats = {
      supported: true,
      generated: keyed.length,
      duplicates,
      unparsable,
      candidates: mutants.length,
      unchecked,
      durationMs: selection.workMs + (performance.now() - ordering),
    };
    return { mutants, stats };
  } finally {
    selection.release();
  }
}
