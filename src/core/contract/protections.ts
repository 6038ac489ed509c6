// What contains a test run, as fields the engine reports and front ends word; every sandbox backend fills one.

/** The containments there are, strongest local one first; `container` runs each test in Podman or Docker. */
export type BackendKind = 'bwrap' | 'unshare' | 'process-group' | 'container';

/** What protects the user during a run, as fields: front ends derive their wording from them, never the reverse. */
export interface Protections {
  readonly backend: BackendKind;
  /** How the backend names itself, e.g. "bubblewrap sandbox as an unprivileged user, no capabilities". */
  readonly name: string;
  /** `all`: only the copy is writable; `partly`: the workspace and home are protected, other files are not. */
  readonly files: 'all' | 'partly' | 'none';
  /** Whether every process of a run ends with it (a namespace or a container), or only its process group. */
  readonly processes: 'all' | 'group';
  readonly network: 'isolated' | 'allowed' | 'not-isolated';
  /** The cap in MiB (0: none asked) and what it applies to. */
  readonly memory: { readonly capMB: number; readonly scope: 'run' | 'process' | 'none' };
}

/** Whether the user should be told plainly that this system protects less than it could. */
export function protectsLess(protections: Protections): boolean {
  return protections.files !== 'all' || protections.network === 'not-isolated' || (protections.memory.capMB > 0 && protections.memory.scope === 'none');
}

/** One plain sentence for the log and the UI. */
export function describeProtections(p: Protections): string {
  return protectionParts(p).map((part) => part.text).join('; ');
}

/** Each protection on its own, named: the sandbox, files, processes, network, memory (the panel's lines). */
export function protectionParts(p: Protections): { readonly label: string; readonly text: string }[] {
  const files = {
    all: 'files outside the copy read-only, a private /tmp and /var/tmp, credentials, .git and .env hidden',
    partly: 'every mount read-only except the run\'s tree, a private /tmp and /var/tmp, credentials, .git and .env hidden; root stays uid 0 without capabilities (bubblewrap runs tests as an unprivileged user: install it)',
    none: 'files outside the copy are NOT protected on this system: install bubblewrap',
  }[p.files];
  const processes = p.processes === 'all' ? 'every process ends with its run' : 'process-group kill only';
  const network = { isolated: 'network: isolated (loopback only; every listening socket of the machine at the run\'s start and the folders daemons bind in hidden from the run)', allowed: 'network: allowed by setting', 'not-isolated': 'network: not isolated on this system' }[p.network];
  const memory =
    p.memory.capMB <= 0
      ? 'memory: no cap'
      : { run: `memory: ${p.memory.capMB} MiB per run (/tmp included), processes capped`, process: `memory: ${p.memory.capMB} MiB per process`, none: 'memory: not capped on this system' }[p.memory.scope];
  // Network and memory say their own name, so the sentence reads alone; `label` repeats it for a list.
  return [
    { label: 'Sandbox', text: p.name },
    { label: 'Files', text: files },
    { label: 'Processes', text: processes },
    { label: 'Network', text: network },
    { label: 'Memory', text: memory },
  ];
}
