// Durations as the log and the verdicts say them: seconds to a tenth, without a trailing ".0".

/** `1400` → "1.4 s", `7000` → "7 s". */
export const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;
