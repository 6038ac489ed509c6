// No namespace at all: runs are ended by process group, tree-kill, their cgroup where there is one, and a watchdog.
import type { PreparedRun, RunSpec, SandboxBackend } from './backend';
import { innerCommand, localEnvironment, prepareLocal } from './localRun';
import type { LocalTools } from './localRun';
import type { Protections } from '../contract/protections';

export function processGroupBackend(tools: LocalTools): SandboxBackend {
  return {
    kind: 'process-group',
    isolatesRuns: false,
    usesHostTools: true,
    mountsOverlay: false,
    protections: ({ memoryMB }): Protections => ({
      backend: 'process-group',
      name: 'no sandbox',
      files: 'none',
      processes: 'group',
      network: 'not-isolated',
      memory: { capMB: memoryMB, scope: tools.cgroup ? 'run' : tools.prlimit ? 'process' : 'none' },
    }),
    prepare: (spec: RunSpec): Promise<PreparedRun> => prepareLocal(tools, spec, { argv: innerCommand(tools, spec), env: localEnvironment(spec.env, false), namespaced: false }),
  };
}
