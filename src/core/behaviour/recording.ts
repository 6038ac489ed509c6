// Reads what the recording prologue wrote: length-prefixed structured-clone frames, one per call, appended by every
// test process; repeats folded, calls whose arguments could not be copied counted with their reason.
import { deserialize } from 'node:v8';
import { inputKey } from './neighbours';
import type { ReplayInput } from './neighbours';

export const RECORDING_FILE = 'calls.bin';

export interface Recording {
  /** Distinct inputs, in the order first seen. */
  readonly inputs: ReplayInput[];
  /** Calls whose arguments (or `this`) could not be copied, and the first reason given. */
  readonly uncloneable: number;
  readonly reason?: string;
}

/** The frames of `bytes`; a torn last frame (a process killed mid-write) and frames that do not read are skipped. */
export function readRecording(bytes: Buffer, maxInputs: number): Recording {
  const inputs: ReplayInput[] = [];
  const seen = new Set<string>();
  let uncloneable = 0;
  let reason: string | undefined;
  for (let at = 0; at + 4 <= bytes.length && inputs.length < maxInputs; ) {
    const length = bytes.readUInt32LE(at);
    if (at + 4 + length > bytes.length) break;
    const frame = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    let call: { args?: unknown; self?: unknown; uncloneable?: unknown };
    try {
      call = deserialize(frame) as typeof call;
    } catch {
      continue;
    }
    if (typeof call?.uncloneable === 'string') {
      uncloneable++;
      reason ??= call.uncloneable;
      continue;
    }
    if (!Array.isArray(call?.args)) continue;
    const input: ReplayInput = { args: call.args, self: call.self };
    const key = inputKey(input);
    if (seen.has(key)) continue;
    seen.add(key);
    inputs.push(input);
  }
  return { inputs, uncloneable, ...(reason ? { reason } : {}) };
}
