// The engine's logging interface: the VS Code layer backs it with a LogOutputChannel, the CLI with stderr.

export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

/** Discards everything; the default where no one listens. */
export const silentLogger: Logger = { trace() {}, info() {}, warn() {}, error() {} };
