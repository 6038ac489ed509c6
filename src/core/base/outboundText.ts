// Text that leaves the machine (model prompts, the review bot's body) keeps no line a candidate could encode a secret in, and names it quotes are escaped and capped.
import { stripAnsi } from './ansi';

/**
 * What a secret looks like after `toString('base64')` or `toString('hex')`: a run of base64 / base64url characters
 * with a stretch of ENCODED_RUN or more that mixes digits and both cases (a path's `/` splits stretches, so
 * `/tmp/vf-run-aB3xYz/src` is not one), or that long ending in `=` padding; or 24 hex digits. 16 characters hold 12 bytes. Ordinary test output rarely has such runs; a line with one is dropped, not
 * masked, because a run cut in two would still carry its bytes.
 */
const ENCODED_RUN = 16;
const BASE64_RUN = /[A-Za-z0-9+/_=-]{16,}/g;
const HEX_RUN = /[0-9a-fA-F]{24,}/;
const mixed = (text: string) => /[0-9]/.test(text) && /[a-z]/.test(text) && /[A-Z]/.test(text);

/** Whether `text` holds a long base64 or hex run (see ENCODED_RUN). */
export function hasEncodedRun(text: string): boolean {
  if (HEX_RUN.test(text)) return true;
  for (const [run] of text.matchAll(BASE64_RUN)) {
    if (/[A-Za-z0-9]=$/.test(run) && /[0-9A-Z]/.test(run) && run.replace(/[/=]/g, '').length >= ENCODED_RUN) return true;
    if (run.split('/').some((stretch) => stretch.length >= ENCODED_RUN && mixed(stretch))) return true;
  }
  return false;
}

/** What stands where a line was dropped, so the reader knows something was there. */
export const DROPPED_LINE = '[a line with a long base64/hex run left out]';

/** Control characters other than tab: terminal escapes and cursor moves never leave the machine either. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `lines` fit to leave the machine: terminal escapes and control characters removed, every line with a long
 * base64/hex run replaced by DROPPED_LINE (consecutive ones by one).
 */
export function outboundLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const line = stripAnsi(raw).replace(CONTROL, '');
    const kept = hasEncodedRun(line) ? DROPPED_LINE : line;
    if (kept === DROPPED_LINE && out[out.length - 1] === DROPPED_LINE) continue;
    out.push(kept);
  }
  return out;
}

/** `text` (many lines) fit to leave the machine, as outboundLines. */
export function outboundText(text: string): string {
  return outboundLines(text.split(/\r?\n/)).join('\n');
}

/** A file or test name quoted in a reason is cut to this many characters. */
export const NAME_CHARS = 80;

/**
 * A name a candidate may have chosen (a file it created, a test id) as a reason quotes it: control characters,
 * newlines and non-ASCII escaped as JSON would (`\n`, `\u001b`), backticks and angle brackets escaped so it cannot
 * close a Markdown fence or open a comment, cut to NAME_CHARS; a name holding a long base64/hex run is not quoted.
 */
export function safeName(name: string, max = NAME_CHARS): string {
  if (hasEncodedRun(name)) return '(a name with a long base64/hex run)';
  const escaped = JSON.stringify(name)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[`<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/** Names for a reason: each through safeName, at most `count`, then how many more. */
export function safeNames(names: readonly string[], count = 10): string {
  const shown = names.slice(0, count).map((name) => safeName(name));
  return names.length > count ? `${shown.join(', ')} and ${names.length - count} more` : shown.join(', ');
}
