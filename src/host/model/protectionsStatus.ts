// What protects this machine's test runs, for the panel: the last request's protections, else a detection run.
import { describeProtections, protectionParts, protectsLess } from '../../core/contract/protections';
import type { Protections } from '../../core/contract/protections';
import { detectSandbox, weakerSandboxAdvice } from '../../core/sandbox/detect';
import type { ProtectionsView } from '../../shared/protocol';

/** Where the last request's protections are kept (the host's MachineState, per machine). */
export interface ProtectionsMemory {
  readonly lastProtections: Protections | undefined;
  setLastProtections(protections: Protections): PromiseLike<void>;
}

/** The default memory cap: what a request with default settings would get, before any request has run. */
const DEFAULT_MEMORY_MB = 4096;

/** The panel's wording for a set of protections; `hint` only where the system protects less than it could. */
function protectionsView(protections: Protections, source: ProtectionsView['source']): ProtectionsView {
  return { text: describeProtections(protections), lines: protectionParts(protections), hint: protectsLess(protections) ? weakerSandboxAdvice() : undefined, source };
}

/** Remembers a request's protections: they are a fact of the machine, so they outlive the workspace. */
export function rememberProtections(machineState: ProtectionsMemory, protections: Protections): ProtectionsView {
  void machineState.setLastProtections(protections);
  return protectionsView(protections, 'last request');
}

/**
 * The last request's protections on this machine, or, before any, those of the strongest local sandbox a trial run
 * finds with default settings (cached per process, so opening the panel again costs nothing).
 */
export async function currentProtections(machineState: ProtectionsMemory): Promise<ProtectionsView> {
  const last = machineState.lastProtections;
  if (last && typeof last.name === 'string' && typeof last.files === 'string') {
    try {
      return protectionsView(last, 'last request');
    } catch {
      // Stored by another version with other fields: detect afresh.
    }
  }
  const backend = await detectSandbox();
  return protectionsView(backend.protections({ allowNetwork: false, memoryMB: DEFAULT_MEMORY_MB }), 'detected');
}
