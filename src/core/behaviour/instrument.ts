// The two texts the behaviour check runs instead of the user's file, only ever in the engine's own run trees: the
// unmodified file with a recording prologue in the selected function, and any version with a replay hook at its end.
import type { LocatedFunction } from './locate';

/** Where the prologue writes: set by the recording run's command, so the file under repair holds no path. */
export const RECORD_VARIABLE = 'VERIFIED_FIX_RECORD';
/** The global the replay hook puts the function (and its class's prototype) in, for the harness to find. */
export const REPLAY_KEY = 'verifiedFix.replay';
/** Calls recorded per test process, and the size the recording file stops growing at. */
export const MAX_RECORDED_CALLS = 500;
export const MAX_RECORDING_BYTES = 4 * 1024 * 1024;

/**
 * One line, so every other line keeps its number (stack traces, coverage). Everything goes through an `any` global so
 * TypeScript with strict settings (ts-jest type-checks) accepts it, and through `process.getBuiltinModule` so it works
 * in CommonJS and ES modules alike. A call whose arguments cannot be copied records why instead.
 */
function prologue(argsExpression: string, selfExpression: string, typescript: boolean): string {
  const any = typescript ? ': any' : '';
  return [
    `{const __vfG${any}=globalThis;`,
    `const __vfRec${any}=(__vfG[Symbol.for('verifiedFix.record')]??=(()=>{`,
    `const p=__vfG.process,file=p&&p.env&&p.env.${RECORD_VARIABLE},get=p&&p.getBuiltinModule;`,
    `if(!file||typeof get!=='function')return()=>undefined;`,
    `const fs=get('fs'),v8=get('v8'),B=__vfG.Buffer;let n=0;`,
    `return(args${any},self${any})=>{if(n>=${MAX_RECORDED_CALLS})return;n++;let bytes${any};`,
    `try{bytes=v8.serialize({args:Array.prototype.slice.call(args),self})}`,
    `catch(e${any}){bytes=v8.serialize({uncloneable:String((e&&e.message)||e).slice(0,200)})}`,
    `const head=B.alloc(4);head.writeUInt32LE(bytes.length);`,
    `try{if(fs.statSync(file).size<${MAX_RECORDING_BYTES})fs.appendFileSync(file,B.concat([head,bytes]))}catch(e){}}})());`,
    `__vfRec(${argsExpression},${selfExpression});}`,
  ].join('');
}

/** The unmodified file with the prologue at the top of the function's body. */
export function recordingText(text: string, fn: LocatedFunction): string {
  const self = fn.prototype ? 'this' : 'undefined';
  const args = fn.arrowParameters ? `[${fn.arrowParameters.join(',')}]` : 'arguments';
  const code = prologue(args, self, fn.typescript);
  if (fn.expressionBody) return `${text.slice(0, fn.bodyStart)}{${code}return (${text.slice(fn.bodyStart, fn.bodyEnd)});}${text.slice(fn.bodyEnd)}`;
  return text.slice(0, fn.bodyStart) + code + text.slice(fn.bodyStart);
}

/** A version of the file (unmodified or a fix) with a last statement that hands the function to the harness. */
export function replayText(text: string, fn: LocatedFunction): string {
  const global = fn.typescript ? '(globalThis as any)' : 'globalThis';
  const proto = fn.prototype ? `, proto: ${fn.prototype}` : '';
  return `${text}\n;${global}[Symbol.for('${REPLAY_KEY}')] = { fn: ${fn.access}${proto} };\n`;
}
