// The recording prologue for a Python function, only ever in the engine's own run trees: at the top of the body,
// before any other local exists, `locals()` is exactly the call's parameters; each call's are pickled into frames.
import { MAX_RECORDED_CALLS, MAX_RECORDING_BYTES, RECORD_VARIABLE } from './instrument';
import type { PythonFunction } from './pythonLocate';

/**
 * Defined once per process (kept in `builtins` so every call finds it) and run in a namespace of its own. A frame is
 * an outer pickle of (module name, inner pickle, reason): the harness reads the module's name without importing
 * anything, and a call whose parameters cannot be pickled records why instead.
 */
const RECORDER = [
  'import os, pickle, struct',
  `file = os.environ.get('${RECORD_VARIABLE}')`,
  'count = 0',
  'def rec(loc, mod):',
  '    global count',
  `    if not file or count >= ${MAX_RECORDED_CALLS}: return`,
  '    count += 1',
  '    why = None',
  '    try: inner = pickle.dumps(loc, protocol=4)',
  '    except Exception as e: inner, why = None, (type(e).__name__ + ": " + str(e))[:200]',
  '    data = pickle.dumps((mod, inner, why), protocol=4)',
  '    try:',
  `        if os.path.getsize(file) < ${MAX_RECORDING_BYTES}:`,
  "            with open(file, 'ab') as f: f.write(struct.pack('<I', len(data)) + data)",
  '    except OSError: pass',
].join('\n');

/** One expression statement: it binds no local of its own, so the function's `locals()` stay its parameters. */
function prologue(): string {
  const builtins = "__import__('builtins').__dict__";
  // JSON's string escapes are all valid in a Python string literal.
  const make = `(lambda g: (exec(${JSON.stringify(RECORDER)}, g), g['rec'])[1])({})`;
  return `(${builtins}.get('__verified_fix_record__') or ${builtins}.setdefault('__verified_fix_record__', ${make}))(dict(locals()), __name__)`;
}

/** The unmodified file with the prologue at the top of the function's body. */
export function pythonRecordingText(text: string, fn: PythonFunction): string {
  return `${text.slice(0, fn.insertAt)}${fn.before}${prologue()}${fn.after}${text.slice(fn.insertAt)}`;
}
