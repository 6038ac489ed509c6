// The one "Verified Fix" log channel, the engine's Logger over it, and short error messages with "Show Log".
import * as vscode from 'vscode';
import { UserError } from '../core/base/errors';
import type { Logger } from '../core/base/logger';

/** How many user-facing messages the test API keeps. */
const KEPT_MESSAGES = 50;

/** The log channel and what the user was told (kept for the integration tests, which cannot read toasts). */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  /** The engine's Logger, writing to the channel. */
  readonly logger: Logger;
  private readonly shown: string[] = [];

  constructor() {
    this.channel = vscode.window.createOutputChannel('Verified Fix', { log: true });
    this.logger = {
      trace: (m) => this.channel.trace(m),
      info: (m) => this.channel.info(m),
      warn: (m) => this.channel.warn(m),
      error: (m) => this.channel.error(m),
    };
  }

  /** Messages shown to the user, oldest first. */
  get messages(): readonly string[] {
    return this.shown;
  }

  /** Records a message the user sees; every toast goes through here so the log has it too. */
  private remember(level: 'info' | 'warn' | 'error', message: string): void {
    this.shown.push(message);
    if (this.shown.length > KEPT_MESSAGES) this.shown.shift();
    this.channel[level](`shown: ${message}`);
  }

  /** A message the user reads in a notification already shown (a request's progress), so no toast of its own. */
  note(message: string): void {
    this.remember('info', message);
  }

  /** An information toast; resolves to the chosen action. Callers do not await it where a test could block. */
  info<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
    this.remember('info', message);
    return vscode.window.showInformationMessage(message, ...actions);
  }

  warn<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
    this.remember('warn', message);
    return vscode.window.showWarningMessage(message, ...actions);
  }

  /**
   * Reports a failure: a UserError's message as it is, anything else as a short line; the stack goes to the log,
   * and "Show Log" opens it.
   */
  error(error: unknown, what = 'Verified Fix failed'): void {
    const isUser = error instanceof UserError;
    const message = isUser ? error.message : `${what}: ${error instanceof Error ? error.message : String(error)}`;
    if (error instanceof Error && !isUser) this.channel.error(error);
    this.remember('error', message);
    void vscode.window.showErrorMessage(message, 'Show Log').then((choice) => {
      if (choice) this.channel.show(true);
    });
  }

  dispose(): void {
    this.channel.dispose();
  }
}
