// The first phase of a workspace-level request: the unmodified workspace's tests run once (the baseline), the failing
// tests picked (all, or those the user named), and the source functions they point at ranked (localisation).
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { UserError } from '../base/errors';
import type { FixRequest, Verdict } from '../contract/fixRequest';
import { prepareExecution, prepareExecutor } from '../execution/prepareExecution';
import type { WorkspaceListing } from '../isolation/workspaceCopy';
import { isSourceFile, localiseWorkspace, MAX_SOURCE_BYTES, MAX_SOURCE_FILES } from '../localisation/localiseWorkspace';
import type { WorkspaceLocalisation } from '../localisation/localiseWorkspace';
import { testLabel } from '../localisation/rankFunctions';
import type { SourceFile } from '../localisation/workspaceCoverage';
import { planTests } from '../testCommand/testPlan';
import type { PerTestPlan } from '../verification/stagedVerification';
import { referenceFrom } from '../verification/reference';
import type { Reference } from '../verification/reference';
import { Lifetime, openRequest } from './openRequest';

/** A request without a place to fix: the engine finds it from the failing tests. */
export interface WorkspaceFixRequest extends Omit<FixRequest, 'relativePath' | 'start' | 'end' | 'unsavedText' | 'languageId'> {
  /** Only the failing tests whose id contains one of these (the runner's name or the full id); all when absent. */
  readonly testNames?: readonly string[];
  /** Functions tried at most, in rank order (default 3). */
  readonly maxFunctions?: number;
}

/** What the first phase found. */
export interface LocalisedWorkspace extends WorkspaceLocalisation {
  /** The failing tests localisation started from (ids as the runner's adapter forms them; empty without per-test results). */
  readonly failingTests: readonly string[];
  readonly testCommand: string;
  /** The source files read, by path: the tries start from this text. */
  readonly sources: ReadonlyMap<string, string>;
  /** The unmodified workspace's run and what it said: every try reuses it instead of running its own. */
  readonly baseline: { readonly verdict: Verdict; readonly reference: Reference };
}

/** Localisation asks no provider; the request's shape needs one, and this one is never called. */
const NO_PROVIDER: FixRequest['provider'] = {
  name: 'none',
  generate: () => {
    throw new Error('localisation asks no provider');
  },
};

/** The project's own source files, read (large and unreadable ones skipped), in listing order. */
async function readSources(listing: WorkspaceListing): Promise<SourceFile[]> {
  const sources: SourceFile[] = [];
  for (const relativePath of listing.files.filter(isSourceFile).slice(0, MAX_SOURCE_FILES)) {
    const path = join(listing.workspace, relativePath);
    const size = await stat(path).then((s) => (s.isFile() ? s.size : Infinity), () => Infinity);
    if (size > MAX_SOURCE_BYTES) continue;
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text !== undefined) sources.push({ relativePath, text });
  }
  return sources;
}

/** The failing tests narrowed to the names given; a name that matches no failing test is the user's to fix. */
function narrow(plan: PerTestPlan, names: readonly string[] | undefined): PerTestPlan {
  if (!names || names.length === 0) return plan;
  const failing = plan.failing.filter((id) => names.some((name) => id.includes(name) || testLabel(id) === name));
  if (failing.length > 0) return { ...plan, failing };
  const passing = plan.baseline.filter((t) => names.some((name) => t.id.includes(name))).map((t) => `\`${testLabel(t.id)}\` (${t.outcome})`);
  const known = passing.length > 0 ? `; it ran and did not fail: ${passing.slice(0, 3).join(', ')}` : '';
  throw new UserError(`no failing test matches ${names.map((n) => `"${n}"`).join(', ')}${known}. Failing tests: ${plan.failing.slice(0, 5).map((id) => `\`${testLabel(id)}\``).join(', ') || 'none'}`);
}

export type LocaliseOnlyRequest = Omit<WorkspaceFixRequest, 'provider' | 'fallbackProvider'>;

/** Runs the baseline and localises; every run ends and every copy is removed before it returns. No provider is asked. */
export async function localiseRequest(request: LocaliseOnlyRequest): Promise<LocalisedWorkspace> {
  const workspaceStat = await stat(request.workspace).catch(() => undefined);
  if (!workspaceStat?.isDirectory()) throw new UserError(`workspace folder not found: ${request.workspace}`);
  if (!request.baselineCheck) throw new UserError('finding the function to fix needs the tests\' run on the unmodified code: turn the baseline check on, or name --file and --lines');
  const listed = await prepareExecution({ ...request, provider: NO_PROVIDER, relativePath: '', start: 0, end: 0 }, request.logger ?? { trace() {}, info() {}, warn() {}, error() {} });
  const sources = await readSources(listed.listing);
  if (sources.length === 0) throw new UserError(`no source file found in ${request.workspace} (JavaScript, TypeScript, Python, Java or Go, outside tests and dependency folders); name one with --file and --lines`);
  const carrier = sources[0];
  const carrierRequest: FixRequest = { ...request, provider: NO_PROVIDER, relativePath: carrier.relativePath, start: 0, end: 0, unsavedText: carrier.text };
  const opened = await openRequest(carrierRequest);
  const { logger } = opened;
  const plan = planTests({
    workspace: request.workspace, testCommand: opened.prepared.testCommand, env: opened.env, usesHostTools: listed.backend.usesHostTools, baselineCheck: true, staged: false, slots: Math.max(1, request.parallel),
  });
  const lifetime = new Lifetime(carrierRequest);
  const executor = await prepareExecutor({
    request: carrierRequest, relativePath: carrier.relativePath, testCommand: plan.runCommand, backend: listed.backend, listing: listed.listing, env: plan.env, redactor: opened.redactor, signal: lifetime.signal, logger,
  });
  lifetime.start();
  const slot = pLimit(Math.max(1, request.parallel));
  try {
    logger.info(`workspace localisation: running \`${plan.testCommand}\` on the unmodified workspace (${sources.length} source file${sources.length === 1 ? '' : 's'}); isolation: ${executor.isolation}`);
    // The only run of this phase: it may keep every slot's core busy.
    const executed = await slot(() => executor.run(carrier.text, 'baseline', { ...(plan.wide?.command ?? plan.fullCommand), seedsRunnerCache: true }));
    const { verdict } = executed;
    if (verdict.cancelled || lifetime.signal.aborted) throw new UserError(lifetime.stoppedEarly?.message ?? 'cancelled');
    if (verdict.status === 'pass') throw new UserError(`the tests pass on the unmodified workspace (\`${plan.testCommand}\`): there is no failing test to start from`);
    if (verdict.status === 'timeout') throw new UserError(`the tests on the unmodified workspace timed out after ${(verdict.durationMs / 1000).toFixed(1)} s; raise the test timeout (--test-timeout or verifiedFix.testTimeoutSeconds)`);
    const reference = referenceFrom(executed, plan.runner, plan.testCommand, logger, plan.wide?.width);
    const perTest = reference.plan ? narrow(reference.plan, request.testNames) : undefined;
    if (!perTest && request.testNames?.length) logger.warn(`no per-test results for \`${plan.testCommand}\`, so the failing tests cannot be narrowed to ${request.testNames.join(', ')}`);
    const messages = perTest ? perTest.baseline.filter((t) => perTest.failing.includes(t.id) && t.message).map((t) => t.message ?? '') : [];
    const traces = messages.length > 0 ? messages : [verdict.output];
    const localisation = await localiseWorkspace({ executor, plan: perTest, traces, carrier, sources, slot, logger });
    return {
      ...localisation, failingTests: perTest?.failing ?? [], testCommand: plan.testCommand, sources: new Map(sources.map((s) => [s.relativePath, s.text])),
      baseline: { verdict, reference: perTest ? { ...reference, plan: perTest } : reference },
    };
  } finally {
    lifetime.close();
    slot.clearQueue();
    await executor.dispose();
  }
}
