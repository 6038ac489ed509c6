// The part of a FixRequest both front ends take from the options alone, built in one place so neither lists fields.
import type { ContainerSettings, FixRequest } from '../contract/fixRequest';
import type { OptionValues } from './options';

/** Everything of a request but the target (workspace, file, selection), the providers and the lifetime. */
export type RequestOptions = Pick<
  FixRequest,
  'testCommand' | 'samples' | 'testTimeoutMs' | 'totalTimeoutMs' | 'parallel' | 'baselineCheck' | 'confirmRuns' | 'stagedVerification' | 'fullSuiteForEveryFix' | 'faultLocalisation' | 'strengthCheck' | 'strengthBudget' | 'behaviourCheck' | 'repairRounds' | 'isolation'
>;

/** Only what is set: an unset field keeps the engine's own default (the devcontainer image, the installed engine). */
function container(values: OptionValues): ContainerSettings | undefined {
  const settings: ContainerSettings = {
    ...(values.containerEngine !== 'auto' ? { engine: values.containerEngine } : {}),
    ...(values.containerImage ? { image: values.containerImage } : {}),
    ...(values.containerExtraArgs.length > 0 ? { extraArgs: values.containerExtraArgs } : {}),
  };
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/**
 * Turns read values into request fields: the values that stand for "work it out" (`parallel` 0, an empty test
 * command) are resolved here, so both front ends resolve them alike. `cpuCount` is what `parallel: 0` means.
 */
export function requestOptions(values: OptionValues, cpuCount: number): RequestOptions {
  const containerSettings = container(values);
  return {
    ...(values.testCommand ? { testCommand: values.testCommand } : {}),
    samples: values.samples,
    testTimeoutMs: values.testTimeoutMs,
    totalTimeoutMs: values.totalTimeoutMs,
    parallel: values.parallel === 0 ? Math.max(1, cpuCount) : values.parallel,
    baselineCheck: values.baselineCheck,
    confirmRuns: values.confirmRuns,
    stagedVerification: values.stagedVerification,
    fullSuiteForEveryFix: values.fullSuiteForEveryFix,
    faultLocalisation: values.faultLocalisation,
    strengthCheck: values.strengthCheck,
    strengthBudget: values.strengthBudget,
    behaviourCheck: values.behaviourCheck,
    repairRounds: values.repairRounds,
    isolation: {
      linkedFolders: values.linkedFolders,
      excludes: values.excludes,
      allowNetwork: values.allowNetwork,
      memoryMB: values.memoryMB,
      passEnv: values.passEnv,
      showGitAndEnvFiles: values.showGitAndEnvFiles,
      backend: values.backend,
      ...(values.allowProcessGroupAsRoot ? { allowProcessGroupAsRoot: true } : {}),
      mode: values.isolationMode,
      ...(containerSettings ? { container: containerSettings } : {}),
    },
  };
}
