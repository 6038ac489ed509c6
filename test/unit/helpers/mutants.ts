// The mutation-family tests' shared vocabulary: a snippet's mutants over the whole text, and what they must hold.
import assert from 'node:assert/strict';
import { generateMutants } from '../../../src/core/mutation/generator';

/** A snippet written line by line, with its final line break. */
export const lines = (...l: string[]): string => l.join('\n') + '\n';

/** Mutates the whole text; returns each mutant applied to the whole text, with its label. */
export async function mutateWhole(languageId: string, fileText: string): Promise<{ files: string[]; labels: string[] }> {
  const { mutants } = await generateMutants({ languageId, fileText, start: 0, end: fileText.length });
  return { files: mutants.map((m) => m.text), labels: mutants.map((m) => m.label) };
}

/** Some mutant of `text` turns its first `from` into `to`. */
export async function assertHasMutant(languageId: string, text: string, from: string, to: string): Promise<void> {
  assert.ok(text.includes(from), `the snippet lacks ${from}`);
  const { files } = await mutateWhole(languageId, text);
  const expected = text.replace(from, to);
  assert.ok(files.includes(expected), `missing mutant:\n${expected}\namong ${files.length}`);
}

/** No mutant of `text` turns its first `from` into `to`. */
export async function assertLacksMutant(languageId: string, text: string, from: string, to: string): Promise<void> {
  const { files } = await mutateWhole(languageId, text);
  assert.ok(!files.includes(text.replace(from, to)), `unexpected mutant: ${from} → ${to}`);
}
