// Terminal escape sequences (colours, cursor moves, window titles, shell-integration marks) removed from output text.

/** CSI sequences, OSC sequences ended by BEL or ST, and two-character escapes. */
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** `text` as a reader sees it, without the escape sequences a terminal or a coloured reporter adds. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
