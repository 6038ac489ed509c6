// Quoting for `/bin/sh -c` and JavaScript-style regexes, and the small shell-word reader detect.ts relies on.

// Characters that mean nothing to sh inside a word, so such a word needs no quotes (keeps logged commands readable).
const PLAIN = /^[A-Za-z0-9_\-./:=@%+,]+$/;

/** `value` as one sh word: unchanged when it holds only plain characters, otherwise single-quoted. */
export function shellQuote(value: string): string {
  if (PLAIN.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * `text` matched literally by a regex, escaped for JavaScript's RegExp (node, jest, vitest, mocha; with or without
 * the `u` flag) and Go's RE2 alike: both read a backslash before these syntax characters as the character itself.
 */
export function regexEscape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** One word of a command line: its value after quote removal, and its text as written. */
export interface ShellWord {
  readonly value: string;
  readonly raw: string;
}

/** A `NAME=value` word before the program: sh sets it for that command only. */
export const SHELL_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The words of a simple command, or a sentence saying why it is not one. Only what can be copied into another
 * command unchanged is accepted: quotes, backslashes and unquoted globs or `~` (which expand the same way wherever
 * sh runs them). Operators (`&&`, `;`, `|`, redirections, subshells), comments and `$` or backtick expansions are
 * refused: they would run several commands or depend on variables that npm sets and the sandbox does not.
 */
export function shellWords(text: string): ShellWord[] | { refused: string } {
  const words: ShellWord[] = [];
  let value = '';
  let raw = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  const end = () => {
    if (inWord) words.push({ value, raw });
    value = raw = '';
    inWord = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      raw += c;
      if (c === "'") quote = undefined;
      else value += c;
      continue;
    }
    if (c === '$' || c === '`') return { refused: 'expands variables or commands' };
    if (quote === '"') {
      raw += c;
      if (c === '"') quote = undefined;
      else if (c === '\\' && '"\\'.includes(text[i + 1] ?? '')) {
        i++;
        value += text[i];
        raw += text[i];
      } else value += c;
      continue;
    }
    if (c === '\n' || c === '\r') return { refused: 'runs several commands' };
    if (/\s/.test(c)) {
      end();
      continue;
    }
    if (';&|'.includes(c)) return { refused: 'chains several commands (&&, ;, |)' };
    if ('<>()'.includes(c)) return { refused: 'redirects input or output or opens a subshell' };
    if (c === '#' && !inWord) return { refused: 'contains a comment' };
    inWord = true;
    raw += c;
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < text.length) {
      i++;
      value += text[i];
      raw += text[i];
    } else value += c;
  }
  if (quote) return { refused: 'has an unterminated quote' };
  end();
  return words;
}

/**
 * `base` with the file and glob arguments after its `program` replaced by `files`; undefined when base does not
 * start that program plainly. Everything up to the program stays (assignments, `npx`), and so do its options: a word
 * after one of `valueOptions` is that option's value, not a file.
 */
export function withFileArguments(base: string, program: RegExp, valueOptions: readonly string[], files: readonly string[]): string | undefined {
  const words = shellWords(base);
  if (!Array.isArray(words)) return undefined;
  const at = words.findIndex(({ value }) => program.test(value));
  if (at < 0) return undefined;
  const kept = words.slice(0, at + 1).map(({ raw }) => raw);
  for (let i = at + 1; i < words.length; i++) {
    const { value, raw } = words[i];
    if (valueOptions.includes(value)) kept.push(raw, words[++i]?.raw ?? '');
    else if (value.startsWith('-')) kept.push(raw);
  }
  return [...kept, ...files.map(shellQuote)].join(' ');
}

/**
 * `base` with a `--require` hook in NODE_OPTIONS and `variable=reportPath` before it: ahead of the user's own
 * NODE_OPTIONS, whether the environment or the command's own `NODE_OPTIONS=…` prefix sets them. Node reads a
 * double-quoted path inside NODE_OPTIONS as one word and has no escape in it: undefined for a hookPath holding a
 * `"` or a backslash, which the caller then runs another way (or not at all).
 */
export function withRequireHook(base: string, variable: string, reportPath: string, hookPath: string): string | undefined {
  if (/["\\]/.test(hookPath)) return undefined;
  const require = `--require "${hookPath}"`;
  const report = `${variable}=${shellQuote(reportPath)}`;
  const own = /(^|\s)NODE_OPTIONS=/;
  if (own.test(base)) return `${report} ${base.replace(own, (_, space: string) => `${space}NODE_OPTIONS=${shellQuote(`${require} `)}`)}`;
  return `${report} NODE_OPTIONS=${shellQuote(require)}"\${NODE_OPTIONS:+ $NODE_OPTIONS}" ${base}`;
}
