// The values each choice of a request takes: constants only, so the option table and its readers import nothing else.
import type { BackendKind } from './protections';

/** The local kinds, strongest first: the order `auto` tries them in. */
export const LOCAL_BACKENDS = ['bwrap', 'unshare', 'process-group'] as const;
export type LocalBackendKind = (typeof LOCAL_BACKENDS)[number];
/** Every value `verifiedFix.sandbox.backend` / `--sandbox` takes. */
export const BACKEND_CHOICES = ['auto', ...LOCAL_BACKENDS, 'container'] as const satisfies ReadonlyArray<BackendKind | 'auto'>;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];

/** The ways of giving each run its own tree, cheapest first: `auto` takes the first that works. */
export const ISOLATION_MODES = ['overlay', 'reuse', 'copy'] as const;
export type IsolationMode = (typeof ISOLATION_MODES)[number];
export const ISOLATION_CHOICES = ['auto', ...ISOLATION_MODES] as const;
export type IsolationChoice = (typeof ISOLATION_CHOICES)[number];

export const STRENGTH_CHOICES = ['off', 'quick', 'thorough'] as const;
export type StrengthChoice = (typeof STRENGTH_CHOICES)[number];

/** Folders linked into every copy by default: dependency folders too big to copy and never edited by a fix. */
export const DEFAULT_LINKED_FOLDERS: readonly string[] = ['node_modules', '.venv', 'venv', 'env', '.tox', 'vendor', 'target'];

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;
