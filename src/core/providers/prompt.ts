// The one place that words the request to a language model: read this file to see exactly what the model sees.
import type { BaselineReport, RepairContext } from '../contract/provider';
import { outboundText } from '../base/outboundText';

/** One chat message in the OpenAI shape; the VS Code adapter maps `system` to a user message. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** What the prompt is built from: plain values, so it can be tested and read without a provider. */
export interface PromptInput {
  readonly languageId: string;
  readonly relativePath: string;
  readonly fileText: string;
  /** The selection: [start, end) UTF-16 offsets into `fileText`. */
  readonly start: number;
  readonly end: number;
  /** The unmodified code's test run; its output is included when it did not pass. */
  readonly baseline?: BaselineReport;
  /** In a repair round: the earlier candidates the tests rejected, which the answer must differ from. */
  readonly repair?: RepairContext;
}

/** Markers around the selection. Plain ASCII so every tokenizer keeps them intact; unlikely in real code. */
export const SELECTION_START = '<<<SELECTION>>>';
export const SELECTION_END = '<<<END SELECTION>>>';

/** Files up to this size go in whole; larger ones are cut to a window of lines around the selection. */
export const WHOLE_FILE_MAX_CHARS = 12_000;
/** Lines kept before and after the selection in a windowed file. */
export const WINDOW_LINES = 60;
/** At most this much of the baseline's output (its end, where the failures are summarised). */
export const BASELINE_MAX_CHARS = 3_000;
/** At most this much of a repair round's failed attempts, so the prompt stays within a small model's context. */
export const REPAIR_MAX_CHARS = 8_000;
/** A failed attempt longer than this is shown cut: its start tells the model what was tried. */
export const ATTEMPT_MAX_CHARS = 1_500;

const SYSTEM = [
  'You are an expert software engineer fixing a bug.',
  'You change only the marked selection of a file so that the project\'s tests pass.',
  'Answer with the replacement for the selection only, in exactly one fenced code block, and nothing else.',
].join(' ');

/** Builds the chat messages asking for a replacement of the selection. */
export function buildPrompt(input: PromptInput): ChatMessage[] {
  const { fileText, start, end } = input;
  const repairTexts = input.repair?.failed.flatMap((a) => [a.replacement, ...a.failure]) ?? [];
  const fence = fenceFor([fileText, ...repairTexts].join('\n'));
  const tag = fenceLanguage(input.languageId);
  // When the selection starts after a line's indentation, show that indentation too: an answer copied from
  // this block is then indented consistently on every line, which the answer parser can re-indent safely.
  const lineStart = fileText.lastIndexOf('\n', start - 1) + 1;
  const before = fileText.slice(lineStart, start);
  const startsMidLine = before.trim() !== '';
  const selection = (startsMidLine ? '' : before) + fileText.slice(start, end);
  const parts: string[] = [];

  parts.push(`Language: ${input.languageId}. File: \`${input.relativePath}\`.`);
  const shown = fileView(fileText, start, end);
  parts.push(
    `${shown.whole ? 'The file' : `An excerpt of the file (lines ${shown.firstLine}-${shown.lastLine} of ${shown.totalLines})`}, ` +
      `with the selection between ${SELECTION_START} and ${SELECTION_END}:`,
    `${fence}${tag}\n${shown.text}\n${fence}`,
  );
  parts.push(`The selection on its own:\n${fence}${tag}\n${selection}\n${fence}`);

  const failure = baselineText(input.baseline);
  if (failure) {
    parts.push(`The tests currently fail. The end of their output:\n${fence}text\n${failure}\n${fence}`);
  } else {
    parts.push('The selection contains a bug. Think about what the code is meant to do and fix it.');
  }
  const attempts = input.repair ? repairText(input.repair, fence, tag) : undefined;
  if (attempts) parts.push(attempts);

  parts.push(
    [
      'Instructions:',
      '- Reply with exactly one fenced code block holding the new text for the selection, and nothing outside it.',
      '- Do not repeat the code before or after the selection, and do not include the selection markers.',
      '- Keep the names, style and indentation of the surrounding code; change as little as needed.',
      ...(startsMidLine ? ['- The selection starts in the middle of a line: your text continues that line.'] : []),
      ...(attempts ? ['- Your fix must be different from every earlier attempt above: they are known to fail.'] : []),
    ].join('\n'),
  );

  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

interface FileView {
  readonly text: string;
  readonly whole: boolean;
  readonly firstLine: number;
  readonly lastLine: number;
  readonly totalLines: number;
}

/** The file with markers inserted; cut to whole lines around the selection when the file is large. */
export function fileView(fileText: string, start: number, end: number): FileView {
  const marked = fileText.slice(0, start) + SELECTION_START + fileText.slice(start, end) + SELECTION_END + fileText.slice(end);
  const lines = marked.split('\n');
  const totalLines = fileText.split('\n').length;
  if (fileText.length <= WHOLE_FILE_MAX_CHARS) {
    return { text: marked, whole: true, firstLine: 1, lastLine: totalLines, totalLines };
  }
  // Line indices are the same in `marked` and `fileText`: the markers contain no newline.
  const startLine = lineOf(fileText, start);
  const endLine = lineOf(fileText, end);
  const first = Math.max(0, startLine - WINDOW_LINES);
  const last = Math.min(lines.length - 1, endLine + WINDOW_LINES);
  const body = lines.slice(first, last + 1);
  if (first > 0) body.unshift(`… (${first} lines above not shown)`);
  if (last < lines.length - 1) body.push(`… (${lines.length - 1 - last} lines below not shown)`);
  return { text: body.join('\n'), whole: false, firstLine: first + 1, lastLine: last + 1, totalLines };
}

/** The tail of a failing baseline's output without terminal colours; undefined when it passed or is absent. */
export function baselineText(baseline: BaselineReport | undefined): string | undefined {
  if (!baseline || baseline.status === 'pass') return undefined;
  // Terminal colour codes are noise to a model and cost tokens.
  // Lines with long base64/hex runs never leave the machine (base/outboundText), even from the unmodified code.
  const clean = outboundText(baseline.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n?/g, '\n')).trim();
  const label = baseline.status === 'fail' ? '' : `(the test run ended with: ${baseline.status})\n`;
  if (!clean) return label ? label.trim() : undefined;
  // The end of a test run's output holds the failure summary; the start is mostly progress noise.
  const tail = clean.length > BASELINE_MAX_CHARS ? `…\n${clean.slice(clean.length - BASELINE_MAX_CHARS).replace(/^[^\n]*\n/, '')}` : clean;
  return label + tail;
}

/**
 * The earlier failed attempts, newest first, each with the first lines of its failure, within REPAIR_MAX_CHARS (the
 * ones that do not fit are counted); undefined when there are none.
 */
export function repairText(repair: RepairContext, fence: string, tag: string): string | undefined {
  if (repair.failed.length === 0) return undefined;
  const shown: string[] = [];
  let used = 0;
  for (const attempt of repair.failed) {
    const code = attempt.replacement.length > ATTEMPT_MAX_CHARS ? `${attempt.replacement.slice(0, ATTEMPT_MAX_CHARS)}\n… (cut)` : attempt.replacement;
    const failure = attempt.failure.length > 0 ? `It failed:\n${fence}text\n${attempt.failure.join('\n')}\n${fence}` : 'It failed.';
    const text = `Attempt ${shown.length + 1}:\n${fence}${tag}\n${code}\n${fence}\n${failure}`;
    // The first attempt always goes in: a repair round without one would ask the first question again.
    if (shown.length > 0 && used + text.length > REPAIR_MAX_CHARS) break;
    shown.push(text);
    used += text.length;
  }
  const more = repair.failed.length - shown.length;
  const head =
    'Earlier attempts to replace the selection did not pass the tests. Each is shown with the first lines of its ' +
    'failure. Do not repeat them: find a different fix.';
  return [head, ...shown, ...(more > 0 ? [`(${more} more failed attempt${more === 1 ? '' : 's'} not shown.)`] : [])].join('\n\n');
}

/** A fence longer than any run of backticks in the file, so code containing ``` cannot close it early. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

const FENCE_TAGS: Readonly<Record<string, string>> = {
  javascriptreact: 'jsx',
  typescriptreact: 'tsx',
  shellscript: 'sh',
  csharp: 'cs',
  plaintext: '',
};

/** The Markdown info string for a VS Code language id (mostly the id itself). */
export function fenceLanguage(languageId: string): string {
  return FENCE_TAGS[languageId] ?? languageId;
}

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
