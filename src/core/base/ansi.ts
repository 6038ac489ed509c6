// Terminal escape sequences (colours, cursor moves, window titles, shell-integration marks) removed from output text.

/** CSI sequences, OSC sequences ended by BEL or ST, and two-character escapes. */
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** `text` as a reader sees it, without the escape sequences a terminal or a coloured reporter adds. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * `text` safe to print on a terminal: every control character but newline and tab shown in caret notation (`^[` for
 * ESC, `^M` for a carriage return, `^?` for DEL; C1 controls as `\u009b`), so a candidate's text cannot write the
 * clipboard (OSC 52), move the cursor over a line of the diff or overprint a fake "pass" line.
 */
export function showControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    return code === 0x7f ? '^?' : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
