// Reading files the user named (candidates, results, the file to fix): failures become messages, not stacks.
import { readFile } from 'node:fs/promises';
import { UserError } from './errors';

/**
 * Reads `path`; a missing file becomes a UserError with `missing`, any other failure names `label` and the
 * error code.
 */
async function readUserFile(path: string, label: string, missing: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? missing : `${label}: cannot read (${code ?? (error as Error).message})`);
  }
}

/** Decodes bytes as UTF-8, refusing files that are not (a replacement would corrupt them). */
export function decodeUtf8(bytes: Uint8Array, label: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`${label} is not UTF-8 text (Verified Fix reads and edits only UTF-8 files)`);
  }
}

/** `readUserFile` then `decodeUtf8`. */
export async function readUserText(path: string, label: string, missing: string): Promise<string> {
  return decodeUtf8(await readUserFile(path, label, missing), label);
}
