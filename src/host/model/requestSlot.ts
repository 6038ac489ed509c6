// One request at a time: what a new request does while another is active — start, be refused, or end the other's
// strength and behaviour checks (they run after its verdicts, so its list is already shown) and start once it has ended.

/** Where the active request is: still verifying candidates, or in the checks after its verdicts. */
export type RequestPhase = 'verifying' | 'checks';

/** The request in progress, as the coordinator sees it. */
export interface ActiveRequest {
  location: string;
  phase: RequestPhase;
  /** Ends the request's engine work, with the reason its log and result give. */
  cancel?: (reason: string) => void;
  /** Settles once the request has ended (its result shown, its slot free). */
  readonly ended: Promise<void>;
}

/** What the cancelled checks say, in the log and in the first request's own result. */
export const CHECKS_CANCELLED = 'strength check cancelled by a new request';

export type Arrival =
  | { readonly kind: 'start' }
  /** Verdicts are still coming in: the new request is refused ("already running"), as before. */
  | { readonly kind: 'refuse'; readonly location: string }
  /** Only the checks after the verdicts are left: they are cancelled and the new request waits for the end. */
  | { readonly kind: 'preempt'; readonly location: string };

/** Decides what a new request does; cancels the active request's checks when that is the answer. */
export function arrive(active: ActiveRequest | undefined): Arrival {
  if (!active) return { kind: 'start' };
  if (active.phase !== 'checks' || !active.cancel) return { kind: 'refuse', location: active.location };
  active.cancel(CHECKS_CANCELLED);
  return { kind: 'preempt', location: active.location };
}
