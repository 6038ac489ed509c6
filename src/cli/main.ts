// The headless front end: `verified-fix <command> …`. Exit codes: 0 verified, 1 none, 2 bad input or provider failure, 3 bug.
import { showControls } from '../core/base/ansi';
import { UserError } from '../core/base/errors';
import { fixHelp } from './flags';
import { runFixCommand } from './fixCommand';
import { exitCodesHelp, version, withSuggestion } from './helpText';
import { runStats, statsHelp } from './statsCommand';
import { takeProductKeys } from './productKeys';

/** `verified-fix --help`: short lines, each command with its synopsis under it. */
const usage = [
  'usage: verified-fix <command> [options]',
  '',
  'Suggests fixes for lines of a file and keeps only those the project\'s own tests verify.',
  '',
  'commands:',
  '  fix      generate candidate fixes and verify each with the tests',
  '           verified-fix fix --workspace DIR --file REL --lines A-B [options]',
  '  stats    pass@k, pass^k and intervals over a results file',
  '           verified-fix stats FILE.jsonl [--k 1,5,10] [--json]',
  '',
  'options:',
  '  -h, --help       this help; `verified-fix <command> --help` for a command\'s options',
  '  -V, --version    print the version',
  '',
  ...exitCodesHelp(),
].join('\n');

/**
 * Every line the CLI writes to stderr (progress, log, warnings, errors): it carries test names, reasons and paths a
 * candidate can shape, so no escape sequence or carriage return of theirs acts on the terminal or a CI log viewer.
 */
function logLine(text: string): void {
  process.stderr.write(`${showControls(text)}\n`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = (text: string) => process.stdout.write(`${text}\n`);
  switch (command) {
    case 'stats':
      return runStats(rest, out, logLine);
    case 'fix':
      return runFixCommand(rest, out, logLine);
    case '-V':
    case '--version':
      out(version);
      return 0;
    case 'help':
      // `verified-fix help fix` as well as `verified-fix fix --help`.
      out(rest[0] === 'fix' ? fixHelp() : rest[0] === 'stats' ? statsHelp() : usage);
      return 0;
    case '-h':
    case '--help':
      out(usage);
      return 0;
    case undefined:
      logLine(usage);
      return 2;
    default:
      if (command.startsWith('-')) {
        throw withSuggestion(
          Object.assign(new Error(`Unknown option '${command}'`), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }),
          ['help', 'version'],
          'verified-fix --help',
        );
      }
      throw new UserError(`unknown command "${command}": the commands are fix and stats (verified-fix --help)`);
  }
}

// Before anything runs: a test run of the same user could read the key from this process's /proc environment.
const keptKey = takeProductKeys();
if (keptKey) logLine(`verified-fix: warning: ${keptKey}`);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed flags: bad input too.
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof UserError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      logLine(`verified-fix: ${(error as Error).message}`);
      process.exitCode = 2;
    } else {
      logLine(`verified-fix: internal error: ${(error as Error)?.stack ?? String(error)}`);
      process.exitCode = 3;
    }
  },
);
