// Generates the single-edit mutants of a selection, likeliest first, without duplicates or syntax errors.
import type { Node } from 'web-tree-sitter';
import { tierOf } from './edit';
import type { MutationEdit, MutationFamily } from './edit';
import { grammarFor, parserFor } from './grammars';
import { identifierEdits } from './identifierEdits';
import { operatorEditsAt } from './operatorEdits';
import { countSyntaxErrors, errorsAfterEdit, lineAt, lineStartsOf } from './parseCheck';
import { profileFor } from './profiles';

/** What to mutate. Offsets are UTF-16 code units into `fileText`; [start, end) is the selection. */
export interface MutationInput {
  /** VS Code language id (`javascript`, `typescript`, `typescriptreact`, `python`, …). */
  readonly languageId: string;
  readonly fileText: string;
  readonly start: number;
  readonly end: number;
  /** 1-based lines the failing tests point at; mutants on them come first. */
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
  readonly durationMs: number;
}

export interface MutationResult {
  /** Every kept mutant, in the order to try them. */
  readonly mutants: readonly Mutant[];
  readonly stats: MutationStats;
}

/** Visits the nodes that overlap [start, end), skipping comments and strings (never mutated). */
function overlapping(root: Node, start: number, end: number, opaque: ReadonlySet<string>, visit: (node: Node) => void): void {
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

/**
 * All single-edit mutants of the selection, ordered: edits on hinted lines first; then operator and off-by-one
 * edits, swaps, identifier replacements (`tierOf`); within a tier every site's likeliest alternative before any
 * site's second; then by position. The order depends only on the input, so it is the same on every call.
 */
export async function generateMutants(input: MutationInput): Promise<MutationResult> {
  const began = performance.now();
  const grammar = grammarFor(input.languageId);
  const none = (supported: boolean): MutationResult => ({
    mutants: [],
    stats: { supported, generated: 0, duplicates: 0, unparsable: 0, candidates: 0, unchecked: 0, durationMs: performance.now() - began },
  });
  if (!grammar) return none(false);
  const { fileText, start, end } = input;
  const profile = profileFor(grammar);
  const parser = await parserFor(grammar);
  const tree = parser.parse(fileText);
  if (!tree) return none(true);
  try {
    const raw: MutationEdit[] = [];
    const identifiers: Node[] = [];
    overlapping(tree.rootNode, start, end, profile.opaque, (node) => {
      raw.push(...operatorEditsAt(node, { text: fileText, profile }));
      if (node.type === profile.identifier && node.startIndex >= start && node.endIndex <= end) identifiers.push(node);
    });
    raw.push(...identifierEdits(identifiers, profile));
    const edits = raw.filter((e) => e.start >= start && e.end <= end);

    const lineStarts = lineStartsOf(fileText);
    const hints = new Set(input.hintLines ?? []);
    const keyed = edits.map((edit, index) => {
      const line = lineAt(lineStarts, edit.start);
      return { edit, line, index, key: [hints.has(line) ? 0 : 1, tierOf(edit.family), edit.rank, edit.start, index] };
    });
    keyed.sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
      return 0;
    });

    const originalErrors = countSyntaxErrors(tree.rootNode);
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
      if (errorsAfterEdit(parser, tree, fileText, lineStarts, edit) > originalErrors) {
        unparsable++;
        continue;
      }
      mutants.push({ text, label: `${edit.description} on line ${line}`, family: edit.family, line, edit });
    }
    const stats: MutationStats = {
      supported: true,
      generated: edits.length,
      duplicates,
      unparsable,
      candidates: mutants.length,
      unchecked,
      durationMs: performance.now() - began,
    };
    return { mutants, stats };
  } finally {
    tree.delete();
  }
}
