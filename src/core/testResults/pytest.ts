// pytest: a plugin's JSON lines (pytestPlugin.ts; JUnit XML is still read) in the report; a selection is node ids as arguments.
import { unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { PYTEST_PLUGIN_MODULE, PYTEST_PLUGIN_SOURCE, withReportPlugin } from './pytestPlugin';
import { shellQuote } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, code: string) => {
    if (code[0] !== '#') return ENTITY[code] ?? whole;
    const point = code[1] === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
    return point <= 0x10ffff ? String.fromCodePoint(point) : whole;
  });
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:-]+)="([^"]*)"/g)) out[m[1]] = unescapeXml(m[2]);
  return out;
}

/**
 * The node id back from pytest's JUnit names. pytest writes `classname` = the node id's path with `/` → `.` and
 * `.py` dropped, then its classes, and `name` = the function with its parameters; xunit1 adds `file`, the path.
 * A collection error has an empty classname and the module as name: its id is the file. When the file is not the
 * classname's module (a test inherited from a class in another file) the module is guessed: the classname's
 * leading segments that do not start with a capital letter.
 */
function nodeId(attrs: Record<string, string>): string | undefined {
  const classname = attrs.classname ?? '';
  const name = attrs.name;
  if (name === undefined) return undefined;
  const file = attrs.file;
  if (file) {
    const module = file.replace(/\.py$/, '').split('/').join('.');
    if (classname === '' && name === module) return file;
    if (classname === module) return `${file}::${name}`;
    if (classname.startsWith(`${module}.`)) return [file, ...classname.slice(module.length + 1).split('.'), name].join('::');
  }
  if (classname === '') return name;
  const segments = classname.split('.');
  const firstClass = segments.findIndex((segment) => /^[A-Z]/.test(segment));
  const modules = firstClass < 0 ? segments : segments.slice(0, Math.max(firstClass, 1));
  return [`${modules.join('/')}.py`, ...segments.slice(modules.length), name].join('::');
}

function outcomeOf(body: string): TestOutcome {
  if (/<(?:failure|error)\b/.test(body)) return 'failed';
  // xfail is reported as skipped too: it did not pass.
  return /<skipped\b/.test(body) ? 'skipped' : 'passed';
}

function messageOf(body: string): string | undefined {
  const m = /<(?:failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:failure|error)>)/.exec(body);
  if (!m) return undefined;
  const headline = (attributes(m[1]).message ?? '').trim();
  const details = unescapeXml(m[2] ?? '').trim();
  return boundMessage(details.startsWith(headline) ? details : `${headline}\n${details}`);
}

/**
 * The plugin's lines, one result per node id: failed when any phase (or its collection) failed, else the call's
 * outcome, else skipped (a test skipped in setup has no call). xfail counts as skipped: it did not pass.
 */
function parseLines(report: string): TestResult[] {
  const tests = new Map<string, { outcome: TestOutcome; message?: string }>();
  for (const line of jsonLines(report)) {
    const id = str(line.id);
    const outcome = str(line.outcome);
    if (!id || (outcome !== 'passed' && outcome !== 'failed' && outcome !== 'skipped')) continue;
    const seen = tests.get(id) ?? { outcome: 'skipped' as TestOutcome };
    if (outcome === 'failed' && seen.outcome !== 'failed') tests.set(id, { outcome, message: boundMessage(str(line.message)) });
    else if (line.when === 'call' && seen.outcome !== 'failed') tests.set(id, { outcome });
    else tests.set(id, seen);
  }
  return [...tests].map(([id, { outcome, message }]) => (message ? { id, outcome, message } : { id, outcome }));
}

function parseXml(report: string): TestResult[] {
  const results: TestResult[] = [];
  for (const m of report.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const id = nodeId(attributes(m[1]));
    if (!id) continue;
    const body = m[2] ?? '';
    const outcome = outcomeOf(body);
    const message = outcome === 'failed' ? messageOf(body) : undefined;
    results.push(message ? { id, outcome, message } : { id, outcome });
  }
  return results;
}

/**
 * Command: `VERIFIED_FIX_PYTEST_REPORT=REPORT PYTHONPATH=OUT… base -p no:cacheprovider -p verified_fix_pytest_report`
 * (see withReportPlugin): the user's addopts, `-x`, `--maxfail`, `-q`/`-v` and own `--junitxml` stay. `only` adds
 * the node ids as arguments, which selects them exactly; but when base already names paths (`pytest tests/`)
 * pytest runs those too, so the run is the full one again.
 */
export const pytestAdapter: RunnerAdapter = {
  name: 'pytest',
  outputFiles: { [`${PYTEST_PLUGIN_MODULE}.py`]: PYTEST_PLUGIN_SOURCE },

  command(base, reportPath, only, outputDir = '') {
    if (only?.length === 0) return undefined;
    const args = unique(only ?? []).map(shellQuote);
    return [withReportPlugin(base, reportPath, outputDir), ...args].join(' ');
  },

  stopsEarly(report) {
    if (report.trimStart().startsWith('<')) return undefined;
    const maxfail = jsonLines(report).find((line) => typeof line.maxfail === 'number')?.maxfail;
    return typeof maxfail === 'number' && maxfail > 0 ? `maxfail=${maxfail}` : undefined;
  },

  /** The plugin's JSON lines, or (reports of earlier releases, a user's own file) JUnit XML. */
  parse(report) {
    return report.trimStart().startsWith('<') ? parseXml(report) : parseLines(report);
  },
};
