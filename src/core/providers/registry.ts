// Every candidate provider by name: its factory and the options it reads, for both front ends.
import { UserError } from '../base/errors';
import type { OptionName, OptionValues, ProviderName } from '../request/options';
import { createFileProvider, readCandidatesFile } from './fileProvider';
import { createMutationProvider } from './mutationProvider';
import { createOpenAiCompatibleProvider } from './openaiCompatible';
import type { CandidateProvider } from '../contract/provider';

/** What a factory gets from its front end besides the options. */
export interface ProviderEnv {
  /** The openai-compatible API key: SecretStorage in the editor, VERIFIED_FIX_API_KEY or OPENAI_API_KEY in the CLI. */
  readonly apiKey: () => Promise<string | undefined>;
  /** A line for the user's log (the CLI's stderr, the editor's log channel). */
  readonly notice: (line: string) => void;
}

export interface MadeProvider {
  readonly provider: CandidateProvider;
  /** The samples default that suits this provider when none is set (the file provider: all of its candidates). */
  readonly defaultSamples?: number;
}

export interface ProviderEntry {
  /** The provider-specific options its factory reads; a front end can point out the others given. */
  readonly reads: readonly OptionName[];
  readonly create: (values: OptionValues, env: ProviderEnv) => Promise<MadeProvider>;
}

/** Entries for some providers: a front end adds what only it can build (the host: `vscode-lm`). */
export type ProviderEntries = { readonly [N in ProviderName]?: ProviderEntry };

/** Model retries for 429, 5xx and network errors: enough to ride out a busy server, not a dead one. */
const MAX_RETRIES = 3;

/** The engine's providers; `vscode-lm` needs the VS Code API, so the host supplies that entry. */
export const CORE_PROVIDERS = {
  mutation: {
    reads: [],
    async create(_values, env) {
      const provider = createMutationProvider({
        onStats: (s) =>
          env.notice(s.supported
            ? `mutation: ${s.candidates} candidate(s) from ${s.generated} edits (${s.unparsable} dropped as unparsable, ${s.duplicates} duplicates) in ${s.durationMs.toFixed(0)} ms`
            : 'mutation: no grammar for this language, so no candidates'),
      });
      return { provider };
    },
  },
  'openai-compatible': {
    reads: ['endpoint', 'model', 'temperature', 'maxConcurrentRequests', 'requestTimeoutMs', 'stream', 'repairRounds'],
    async create(values, env) {
      const provider = createOpenAiCompatibleProvider({
        endpoint: values.endpoint,
        model: values.model,
        apiKey: await env.apiKey(),
        temperature: values.temperature,
        maxConcurrentRequests: values.maxConcurrentRequests,
        requestTimeoutMs: values.requestTimeoutMs,
        maxRetries: MAX_RETRIES,
        stream: values.stream,
      });
      return { provider };
    },
  },
  file: {
    reads: ['candidates'],
    async create(values) {
      if (!values.candidates) throw new UserError('--provider file needs --candidates FILE.json (a JSON array of replacement strings)');
      const candidates = await readCandidatesFile(values.candidates);
      return { provider: createFileProvider(candidates), defaultSamples: candidates.length };
    },
  },
} as const satisfies ProviderEntries;

export interface Providers {
  readonly provider: CandidateProvider;
  /** Asked only when no candidate of `provider` is verified. */
  readonly fallbackProvider?: CandidateProvider;
  /** The first provider's samples default, if it has its own. */
  readonly defaultSamples?: number;
}

function entry(entries: ProviderEntries, name: ProviderName): ProviderEntry {
  const found = entries[name];
  if (!found) throw new UserError(`the ${name} provider is not available here`);
  return found;
}

/** The request's providers, as `values.provider` and `values.fallbackProvider` name them; a fresh one per request. */
export async function createProviders(values: OptionValues, env: ProviderEnv, entries: ProviderEntries = CORE_PROVIDERS): Promise<Providers> {
  const { provider, defaultSamples } = await entry(entries, values.provider).create(values, env);
  const made = { provider, ...(defaultSamples !== undefined ? { defaultSamples } : {}) };
  if (values.fallbackProvider === 'none') return made;
  return { ...made, fallbackProvider: (await entry(entries, values.fallbackProvider).create(values, env)).provider };
}

/** Provider options given that none of the request's providers reads (`--temperature` with `mutation`). */
export function unreadOptions(values: OptionValues, given: ReadonlySet<OptionName>, entries: ProviderEntries = CORE_PROVIDERS): OptionName[] {
  const providerOptions = new Set(Object.values(entries).flatMap((e) => e.reads));
  const chosen = [values.provider, values.fallbackProvider].flatMap((name) => (name === 'none' ? [] : (entries[name]?.reads ?? [])));
  return [...given].filter((name) => providerOptions.has(name) && !chosen.includes(name));
}
