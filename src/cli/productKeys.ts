// Takes the product's API keys out of the CLI's own environment block, so that a test run of the same user (the
// process-group backend has no PID namespace) cannot read them from /proc/<cli pid>/environ.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/** The variables the CLI reads its model key from (resolveApiKey): held here, and nowhere in the environment. */
const KEY_NAMES = ['VERIFIED_FIX_API_KEY', 'OPENAI_API_KEY'] as const;
const held: Record<string, string> = {};

/** The keys taken at start, to give the provider in place of the environment's. */
export function heldProductKeys(): Readonly<Record<string, string>> {
  return held;
}

/**
 * /proc/<pid>/environ reads the process's memory between env_start and env_end, the strings the kernel put there at
 * exec: `delete process.env.X` only drops libc's pointer, so the bytes must be overwritten in place, through
 * /proc/self/mem (a process may always write its own memory).
 */
function wipeFromEnvironBlock(names: readonly string[]): void {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // After the command name (which may hold spaces and parentheses); the line ends env_start env_end exit_code.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ');
  const start = Number(fields[fields.length - 3]);
  const end = Number(fields[fields.length - 2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) throw new Error('no environment bounds in /proc/self/stat');
  const fd = openSync('/proc/self/mem', 'r+');
  try {
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    let at = 0;
    while (at < block.length) {
      const nul = block.indexOf(0, at);
      const stop = nul < 0 ? block.length : nul;
      const entry = block.subarray(at, stop).toString('latin1');
      const name = entry.slice(0, entry.indexOf('='));
      if (entry.includes('=') && names.includes(name)) {
        const value = at + name.length + 1;
        writeSync(fd, Buffer.alloc(stop - value), 0, stop - value, start + value);
      }
      at = stop + 1;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Moves the key variables from the environment into this module, once at start; returns why the environment block
 * still holds them, when it could not be overwritten (not Linux needs none: no /proc to read it from).
 */
export function takeProductKeys(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = KEY_NAMES.filter((name) => env[name] !== undefined);
  for (const name of names) {
    held[name] = env[name] as string;
    delete env[name];
  }
  if (names.length === 0 || process.platform !== 'linux') return undefined;
  try {
    wipeFromEnvironBlock(names);
    return undefined;
  } catch (error) {
    return `${names.join(' and ')} could not be removed from this process's /proc environment (${(error as Error).message}): a process-group test run of your user could read it there`;
  }
}
