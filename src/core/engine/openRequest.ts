// The first phase of a request: secrets kept out of runs and logs, the inputs checked, and the request's lifetime.
import type { FixRequest, StoppedEarly } from '../contract/fixRequest';
import { silentLogger } from '../base/logger';
import type { Logger } from '../base/logger';
import { checkRequest } from '../request/checkRequest';
import type { PreparedRequest } from '../request/checkRequest';
import { Redactor, scrubEnvironment } from '../security/secrets';

/** A logger that never writes a secret value, whatever the engine or a provider hands it. */
function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  return {
    trace: (message) => logger.trace(redactor.redact(message)),
    info: (message) => logger.info(redactor.redact(message)),
    warn: (message) => logger.warn(redactor.redact(message)),
    error: (message) => {
      if (typeof message === 'string') return logger.error(redactor.redact(message));
      const copy = new Error(redactor.redact(message.message));
      if (message.stack) copy.stack = redactor.redact(message.stack);
      logger.error(copy);
    },
  };
}

/** A checked request, with the environment its runs get and a logger that redacts. */
export interface OpenedRequest {
  readonly prepared: PreparedRequest;
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** The runs' environment without secret-looking variables. */
  readonly env: NodeJS.ProcessEnv;
  /** Names of the secret-looking variables left out of `env`. */
  readonly dropped: readonly string[];
  /** Names left out of `env` because they are not on the allow-list. */
  readonly notAllowed: readonly string[];
}

export async function openRequest(request: FixRequest): Promise<OpenedRequest> {
  const scrubbed = scrubEnvironment(process.env, request.isolation.passEnv ?? []);
  const redactor = new Redactor(scrubbed.droppedValues);
  const logger = redactingLogger(request.logger ?? silentLogger, redactor);
  const prepared = await checkRequest(request);
  return { prepared, logger, redactor, env: scrubbed.env, dropped: scrubbed.dropped, notAllowed: scrubbed.notAllowed };
}

/**
 * How long a request lives: one abort for everything it started, ended by the caller's cancel, the total timeout or
 * `stop`, with the first reason kept. `start` arms the timer once nothing can fail before the cleanup that `close` does.
 */
export class Lifetime {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private reason?: StoppedEarly;
  // A caller may say why it aborts (`abort('strength check cancelled by a new request')`): that becomes the message.
  private readonly onOuterAbort = () => {
    const reason: unknown = this.request.signal?.reason;
    this.stop('cancelled', typeof reason === 'string' && reason !== '' ? reason : 'cancelled');
  };

  constructor(private readonly request: FixRequest) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the request stopped early, if it did. */
  get stoppedEarly(): StoppedEarly | undefined {
    return this.reason;
  }

  /** Forgets a stop (one that ended only the strength check, after every verdict was in). */
  restore(before: StoppedEarly | undefined): void {
    this.reason = before;
  }

  start(): void {
    const { signal, totalTimeoutMs } = this.request;
    if (signal?.aborted) this.onOuterAbort();
    signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.timer = setTimeout(() => this.stop('totalTimeout', `total timeout (${Math.round(totalTimeoutMs / 1000)} s)`), totalTimeoutMs);
  }

  stop(kind: StoppedEarly['kind'], message: string): void {
    if (this.controller.signal.aborted) return;
    this.reason = { kind, message };
    this.controller.abort();
  }

  close(): void {
    clearTimeout(this.timer);
    this.request.signal?.removeEventListener('abort', this.onOuterAbort);
  }
}
