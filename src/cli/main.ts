// The headless front end: `verified-fix <command> …`. Exit codes: 0 success, 1 no passing fix, 2 bad input.
import { UserError } from '../core/errors';
import { fixUsage, runFixCommand } from './fixCommand';
import { runStats, statsUsage } from './statsCommand';

const usage = ['usage: verified-fix <command> [options]', '', 'commands:', `  ${fixUsage.replace('usage: ', '')}`, `  ${statsUsage.replace('usage: ', '')}`].join('\n');

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = (text: string) => process.stdout.write(`${text}\n`);
  switch (command) {
    case 'stats':
      return runStats(rest, out);
    case 'fix':
      return runFixCommand(rest, out, (text) => process.stderr.write(`${text}\n`));
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      out(usage);
      return command === undefined ? 2 : 0;
    default:
      throw new UserError(`unknown command "${command}"\n${usage}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed flags: bad input too.
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof UserError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`verified-fix: ${(error as Error).message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`verified-fix: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 3;
    }
  },
);
