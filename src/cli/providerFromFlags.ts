// Turns the CLI's --provider flags into a candidate provider.
import { UserError } from '../core/errors';
import { createFileProvider, readCandidatesFile } from '../core/providers/fileProvider';
import { createMutationProvider } from '../core/providers/mutationProvider';
import { createOpenAiCompatibleProvider, resolveApiKey } from '../core/providers/openaiCompatible';
import type { CandidateProvider } from '../core/providers/provider';

/** The parseArgs options every provider needs; merged into the `fix` command's options. */
export const providerOptions = {
  provider: { type: 'string' },
  'fallback-provider': { type: 'string' },
  candidates: { type: 'string' },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  temperature: { type: 'string' },
  'max-concurrent-requests': { type: 'string' },
  'request-timeout': { type: 'string' },
  stream: { type: 'boolean', default: false },
} as const;

export interface ProviderFlags {
  readonly provider?: string;
  readonly 'fallback-provider'?: string;
  readonly candidates?: string;
  readonly endpoint?: string;
  readonly model?: string;
  readonly temperature?: string;
  readonly 'max-concurrent-requests'?: string;
  readonly 'request-timeout'?: string;
  readonly stream?: boolean;
}

export const providerNames = ['file', 'mutation', 'openai-compatible'] as const;

function number(flag: string, text: string | undefined, fallback: number, check: (v: number) => boolean, expected: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || !check(value)) throw new UserError(`${flag} must be ${expected}, got "${text}"`);
  return value;
}

export interface ProvidersFromFlags {
  readonly provider: CandidateProvider;
  readonly fallbackProvider?: CandidateProvider;
  /** The samples default that suits the provider: all candidates of a file; 10 otherwise. */
  readonly defaultSamples: number;
}

/**
 * The provider and the optional fallback (asked only when no candidate of the first is verified).
 * Without --provider: `file` when --candidates is given, `openai-compatible` when --endpoint is, else `mutation`.
 */
export async function createProviderFromFlags(flags: ProviderFlags, notice: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<ProvidersFromFlags> {
  const name = flags.provider ?? (flags.candidates ? 'file' : flags.endpoint ? 'openai-compatible' : 'mutation');
  const first = await createNamedProvider(name, flags, notice, env);
  const fallbackName = flags['fallback-provider'];
  if (fallbackName === undefined) return first;
  if (fallbackName === name) throw new UserError(`--fallback-provider ${fallbackName} is the same as --provider`);
  const fallback = await createNamedProvider(fallbackName, flags, notice, env);
  return { ...first, fallbackProvider: fallback.provider };
}

async function createNamedProvider(name: string, flags: ProviderFlags, notice: (line: string) => void, env: NodeJS.ProcessEnv): Promise<ProvidersFromFlags> {
  switch (name) {
    case 'file': {
      if (!flags.candidates) throw new UserError('--provider file needs --candidates FILE.json (a JSON array of replacement strings)');
      const candidates = await readCandidatesFile(flags.candidates);
      return { provider: createFileProvider(candidates), defaultSamples: candidates.length };
    }
    case 'mutation': {
      const provider = createMutationProvider({
        onStats: (s) =>
          notice(s.supported
            ? `mutation: ${s.candidates} candidate(s) from ${s.generated} edits (${s.unparsable} dropped as unparsable, ${s.duplicates} duplicates) in ${s.durationMs.toFixed(0)} ms`
            : 'mutation: no grammar for this language, so no candidates'),
      });
      return { provider, defaultSamples: 10 };
    }
    case 'openai-compatible': {
      if (!flags.endpoint) throw new UserError('--provider openai-compatible needs --endpoint URL (e.g. http://localhost:11434/v1 for Ollama)');
      if (!flags.model) throw new UserError('--provider openai-compatible needs --model NAME (e.g. qwen2.5-coder:7b)');
      const provider = createOpenAiCompatibleProvider({
        endpoint: flags.endpoint,
        model: flags.model,
        apiKey: resolveApiKey(env),
        temperature: number('--temperature', flags.temperature, 0.8, (v) => v >= 0 && v <= 2, 'a number from 0 to 2'),
        maxConcurrentRequests: number('--max-concurrent-requests', flags['max-concurrent-requests'], 4, (v) => Number.isInteger(v) && v >= 1, 'a whole number ≥ 1'),
        requestTimeoutMs: 1000 * number('--request-timeout', flags['request-timeout'], 120, (v) => v > 0, 'a positive number of seconds'),
        maxRetries: 3,
        stream: flags.stream ?? false,
      });
      return { provider, defaultSamples: 10 };
    }
    default:
      throw new UserError(`unknown provider "${name}": use ${providerNames.join(', ')}`);
  }
}
