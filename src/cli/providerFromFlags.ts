// The CLI's side of the provider registry: the API key from the environment (held since start), notices and warnings on stderr.
import type { OptionName, OptionSpec, OptionValues } from '../core/request/options';
import { OPTIONS } from '../core/request/options';
import { resolveApiKey } from '../core/providers/openaiCompatible';
import type { Providers } from '../core/providers/registry';
import { createProviders, unreadOptions } from '../core/providers/registry';
import { heldProductKeys } from './productKeys';

/**
 * The request's providers from the read flags. A provider flag that none of them reads is pointed out: a bot
 * passing --temperature to the mutation provider should learn it changes nothing.
 */
export async function createProvidersFromFlags(
  values: OptionValues,
  given: ReadonlySet<OptionName>,
  notice: (line: string) => void,
  env: NodeJS.ProcessEnv = { ...process.env, ...heldProductKeys() },
): Promise<Providers> {
  const providers = await createProviders(values, { apiKey: async () => resolveApiKey(env), notice });
  const used = [values.provider, ...(values.fallbackProvider === 'none' ? [] : [values.fallbackProvider])].join(' or ');
  for (const name of unreadOptions(values, given)) {
    const flag = (OPTIONS as readonly OptionSpec[]).find((o) => o.name === name)?.flag;
    notice(`warning: --${flag} is not used by the ${used} provider`);
  }
  return providers;
}
