// Turns the CLI's --provider flags into a candidate provider.
import { UserError } from '../core/errors';
import { createFileProvider, readCandidatesFile } from '../core/providers/fileProvider';
import type { CandidateProvider } from '../core/providers/provider';

/** The parseArgs options every provider needs; merged into the `fix` command's options. */
export const providerOptions = {
  provider: { type: 'string' },
  candidates: { type: 'string' },
} as const;

export interface ProviderFlags {
  readonly provider?: string;
  readonly candidates?: string;
}

/** The provider, and the samples default that suits it (all candidates of a file; 10 otherwise). */
export async function createProviderFromFlags(flags: ProviderFlags): Promise<{ provider: CandidateProvider; defaultSamples: number }> {
  const name = flags.provider ?? (flags.candidates ? 'file' : 'mutation');
  switch (name) {
    case 'file': {
      if (!flags.candidates) throw new UserError('--provider file needs --candidates FILE.json (a JSON array of replacement strings)');
      const candidates = await readCandidatesFile(flags.candidates);
      return { provider: createFileProvider(candidates), defaultSamples: candidates.length };
    }
    default:
      throw new UserError(`unknown provider "${name}": use file`);
  }
}
