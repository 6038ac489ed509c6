// Turns a model's free-form answer into the replacement text for the selection, or says why it cannot.
import { SELECTION_END, SELECTION_START } from './prompt';

/** Where the replacement goes: the file and the [start, end) selection the prompt marked. */
export interface AnswerContext {
  readonly fileText: string;
  readonly start: number;
  readonly end: number;
  /**
   * False when the answer was cut off (the server reported `finish_reason: length`): an unclosed code block is
   * then rejected instead of taken as it is. Default true.
   */
  readonly complete?: boolean;
}

/** The replacement, ready to put in place of [start, end), or why none could be taken. */
export type ParsedAnswer = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** Extracts the code from an answer and fits it to the selection's indentation and line endings. */
export function parseAnswer(answer: string, context: AnswerContext): ParsedAnswer {
  const original = context.fileText.slice(context.start, context.end);
  const code = extractCode(answer, original, context.complete ?? true);
  if (!code.ok) return code;
  return { ok: true, text: fitToSelection(code.text, context) };
}

interface Block {
  readonly body: string;
  readonly closed: boolean;
}

/**
 * The code in an answer: the fenced block (``` or ~~~, with or without a language), else the answer itself with
 * leading and trailing prose lines dropped. With several blocks the first one that differs from the original
 * selection wins: models like to quote the old code before giving the new.
 */
export function extractCode(answer: string, original: string, complete = true): ParsedAnswer {
  // Reasoning models (deepseek-r1, qwen3) put their thinking inline before the answer.
  let text = answer.replace(/\r\n?/g, '\n').replace(/<think>[\s\S]*?<\/think>/g, '');
  if (/<think>/.test(text)) return { ok: false, reason: 'the answer ended while the model was still reasoning (<think> not closed)' };
  text = text.split(SELECTION_START).join('').split(SELECTION_END).join('');
  if (!text.trim()) return { ok: false, reason: 'the answer is empty' };

  const blocks = fencedBlocks(text);
  if (blocks.length > 0) {
    const closed = blocks.filter((b) => b.closed && b.body.trim() !== '');
    if (closed.length === 0) {
      const open = blocks.find((b) => !b.closed && b.body.trim() !== '');
      if (!open) return { ok: false, reason: 'the code block in the answer is empty' };
      if (!complete) return { ok: false, reason: 'the answer was cut off before its code block ended (max tokens reached)' };
      return { ok: true, text: open.body };
    }
    const squash = (s: string) => s.replace(/\s+/g, '');
    const changed = closed.find((b) => squash(b.body) !== squash(original));
    return { ok: true, text: (changed ?? closed[0]).body };
  }

  // No fence: bare code, possibly with an introduction ("Here is the fix:") or a closing remark.
  const lines = text.split('\n');
  while (lines.length > 0 && (lines[0].trim() === '' || isProse(lines[0]))) lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1].trim() === '' || isProse(lines[lines.length - 1]))) lines.pop();
  if (lines.length === 0) return { ok: false, reason: `the answer has no code: "${preview(text)}"` };
  let code = lines.join('\n');
  // A one-line answer in inline backticks: `a + b`
  const inline = /^\s*`([^`\n]+)`\s*$/.exec(code);
  if (inline) code = inline[1];
  return { ok: true, text: code };
}

/** Fenced blocks in order; an opening fence is closed by a line of the same character at least as long. */
function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const open = /^\s*(`{3,}|~{3,})[^`]*$/.exec(lines[i]);
    i++;
    if (!open) continue;
    const fence = open[1];
    const body: string[] = [];
    let closed = false;
    for (; i < lines.length; i++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) {
        closed = true;
        i++;
        break;
      }
      body.push(lines[i]);
    }
    blocks.push({ body: body.join('\n'), closed });
  }
  return blocks;
}

/**
 * A line of English rather than code: a sentence (≥ 3 words ending in . ! ? or :) or a long run of words,
 * without the punctuation code is made of. Deliberately conservative: a false "code" only costs a failed test.
 */
function isProse(line: string): boolean {
  const t = line.trim();
  if (/[;{}=<>[\]]/.test(t) || /^(\/\/|#|--|\*|\/\*)/.test(t)) return false;
  const words = t.split(/\s+/);
  const wordy = words.filter((w) => /^[A-Za-z'’,.:!?()"-]+$/.test(w)).length >= words.length * 0.8;
  if (!wordy) return false;
  return (words.length >= 3 && /[.!?:]$/.test(t) && /^[A-Z"']/.test(t)) || words.length >= 8;
}

function preview(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/**
 * Fits extracted code to the selection: strips an echoed start of the line when the selection starts mid-line,
 * re-indents to the selection's indentation (the first line gets none when the file already has it before
 * `start`), converts tabs/spaces to the file's style, uses the file's line endings and ends with a newline exactly
 * when the selection did.
 */
export function fitToSelection(code: string, context: AnswerContext): string {
  const { fileText, start, end } = context;
  const selection = fileText.slice(start, end);
  const eol = fileText.includes('\r\n') ? '\r\n' : '\n';
  const lineStart = fileText.lastIndexOf('\n', start - 1) + 1;
  const before = fileText.slice(lineStart, start);
  const midLine = before.trim() !== '';

  let lines = code.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 1 && lines[0].trim() === '') lines.shift();
  while (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();

  if (midLine) {
    // Small models often answer with the whole line; keep only what follows the part before the selection.
    const head = before.trim();
    const first = lines[0].trimStart();
    if (first.startsWith(head) && first.length > head.length) {
      lines[0] = first.slice(head.length).trimStart();
      const lineEnd = fileText.indexOf('\n', end);
      const tail = fileText.slice(end, lineEnd === -1 ? fileText.length : lineEnd).trim();
      const last = lines[lines.length - 1].trimEnd();
      if (tail && !selection.includes('\n') && last.endsWith(tail) && last.length > tail.length) {
        lines[lines.length - 1] = last.slice(0, last.length - tail.length).trimEnd();
      }
    }
  }

  const lineIndent = /^[ \t]*/.exec(fileText.slice(lineStart))![0];
  // Indentation of the selection's first line: the file's before `start`, or the selection's own at column 0.
  const target = before === '' ? (/^[ \t]*/.exec(selection.split('\n').find((l) => l.trim() !== '') ?? '')![0]) : lineIndent;
  const unit = indentUnit(fileText);

  const common = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length));
  lines = lines.map((l) => (l.trim() === '' ? '' : l.slice(Number.isFinite(common) ? common : 0)));
  // The model's own step (2 or 4 spaces, say) is its smallest indentation once the common part is gone.
  const steps = lines.map((l) => /^ */.exec(l)![0].length).filter((n) => n > 0);
  const modelStep = steps.length > 0 ? Math.min(...steps) : 4;
  lines = lines.map((l) => (l === '' ? '' : convertIndent(l, unit, modelStep)));
  lines = lines.map((l, i) => (l === '' ? '' : i === 0 && before !== '' ? l : target + l));

  let text = lines.join(eol);
  const trailing = /\n([ \t]*)$/.exec(selection);
  if (trailing) text = text.replace(/[ \t]*$/, '') + eol + trailing[1];
  return text;
}

/** The file's indentation step: a tab when most indented lines start with one, else the smallest space indent. */
function indentUnit(fileText: string): string {
  let tabs = 0;
  let spaces = 0;
  let smallest = Infinity;
  for (const m of fileText.matchAll(/^([ \t]+)\S/gm)) {
    if (m[1][0] === '\t') tabs++;
    else {
      spaces++;
      if (m[1].length >= 2) smallest = Math.min(smallest, m[1].length);
    }
  }
  if (tabs > spaces) return '\t';
  return ' '.repeat(Number.isFinite(smallest) ? Math.min(smallest, 8) : 4);
}

/**
 * Rewrites a line's leading whitespace in the file's unit when the model used the other kind (tabs vs spaces);
 * `modelStep` is how many spaces make one level in the model's answer.
 */
function convertIndent(line: string, unit: string, modelStep: number): string {
  const lead = /^[ \t]*/.exec(line)![0];
  if (lead === '') return line;
  const rest = line.slice(lead.length);
  if (unit === '\t' && !lead.includes('\t')) return '\t'.repeat(Math.floor(lead.length / modelStep)) + ' '.repeat(lead.length % modelStep) + rest;
  if (unit !== '\t' && lead.includes('\t')) return lead.replace(/\t/g, unit) + rest;
  return line;
}
