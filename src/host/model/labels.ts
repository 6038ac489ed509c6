// Line wording shared by the browser, the panel, the CSV and the stored task: one spelling of a line range.

/** "7" for one line, "5–9" for several. */
export function lineLabel(startLine: number, endLine: number): string {
  return startLine === endLine ? String(startLine) : `${startLine}–${endLine}`;
}
