// A request in which the providers gave no sample at all: a provider failure (exit 2), said in one sentence.
import type { FixResult } from '../core/contract/fixRequest';
import type { OptionValues } from '../core/request/options';

/** What to do about a lost sample's reason (the model providers' texts in src/core/providers/chatCompletions.ts). */
function remedy(reason: string, values: OptionValues): string {
  if (/HTTP 429/.test(reason)) return 'the server is rate-limiting: lower --max-concurrent-requests or try again later';
  if (/HTTP 5\d\d/.test(reason)) return `the server's log says why: check that it can serve model "${values.model}" (--model), or try again when it is up`;
  if (/within \d+ ms/.test(reason)) return 'raise --request-timeout, or use a smaller or less busy model';
  if (/cannot reach/.test(reason)) return 'check that the server is running and that --endpoint is right';
  return `check the server and its log (--endpoint ${values.endpoint}, --model "${values.model}")`;
}

/**
 * One sentence naming what failed and what to fix, when every sample was lost and so nothing was tested;
 * undefined when some sample arrived (the verdicts then speak) or when none was asked of a model.
 */
export function providerFailure(result: FixResult, values: OptionValues): string | undefined {
  if (result.samples > 0 || result.lost.length === 0) return undefined;
  const reasons = [...new Set(result.lost)];
  const count = `${result.lost.length} of ${result.lost.length} samples lost`;
  return `the model server at ${values.endpoint} failed: ${reasons.join('; ')} (${count}), so nothing was tested; ${remedy(reasons[0], values)}.`;
}
