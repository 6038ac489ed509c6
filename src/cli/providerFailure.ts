// A request in which the providers gave no sample at all: a provider failure (exit 2), said in one sentence.
import type { FixResult } from '../core/contract/fixRequest';
import type { LostKind } from '../core/contract/provider';
import type { OptionValues } from '../core/request/options';

/** What to do about a lost sample, by its kind (set where the providers make the message), never by its wording. */
function remedy(kind: LostKind, values: OptionValues): string {
  switch (kind) {
    case 'rateLimited':
      return 'the server is rate-limiting: lower --max-concurrent-requests or try again later';
    case 'server':
      return `the server's log says why: check that it can serve model "${values.model}" (--model), or try again when it is up`;
    case 'timeout':
      return 'raise --request-timeout, or use a smaller or less busy model';
    case 'unreachable':
      return 'check that the server is running and that --endpoint is right';
    case 'rejected':
    case 'other':
      return `check the server and its log (--endpoint ${values.endpoint}, --model "${values.model}")`;
  }
}

/**
 * One sentence naming what failed and what to fix, when every sample was lost and so nothing was tested;
 * undefined when some sample arrived (the verdicts then speak) or when none was asked of a model.
 */
export function providerFailure(result: FixResult, values: OptionValues): string | undefined {
  if (result.samples > 0 || result.lost.length === 0) return undefined;
  const reasons = [...new Set(result.lost.map((l) => l.message))];
  const count = `${result.lost.length} of ${result.lost.length} samples lost`;
  return `the model server at ${values.endpoint} failed: ${reasons.join('; ')} (${count}), so nothing was tested; ${remedy(result.lost[0].kind, values)}.`;
}
