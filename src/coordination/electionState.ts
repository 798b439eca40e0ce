/**
 * The elector's state machine vocabulary: where it is ({@link ElectionState}), what can happen
 * ({@link ElectionInput}) and what it asks the runtime to do ({@link ElectionEffect}). The one
 * transition is {@link electionStep}.
 */
import type { Lease } from './lease.js';

/** Whether this candidate leads, and who holds the lease as far as it knows. */
export type Leadership =
  | {
      /** This candidate holds the lease. */
      readonly state: 'leading';
      /** This candidate's identity. */
      readonly holder: string;
      /** The lease's `leaseTransitions` while this candidate leads: a term number, for fencing writes outside Kubernetes. */
      readonly transitions: number;
    }
  | {
      /** Another candidate holds the lease, or nobody does. */
      readonly state: 'following';
      /** The holder another candidate's record names, `undefined` when nobody holds it or it is not known yet. */
      readonly holder: string | undefined;
    };

/** What the elector has seen of the record. */
export interface Observation {
  /** The lease as last read or written; its resourceVersion guards the next write. */
  readonly lease: Lease | undefined;
  /** {@link recordKeyOf} of that lease. */
  readonly recordKey: string;
  /** Local time at which the record was last seen to change (client-go's `observedTime`). */
  readonly observedAt: number;
}

/** While leading: until when, and in which term. */
export interface Term {
  /** The start of the last successful write + renewDeadline: leadership ends then unless renewed. */
  readonly until: number;
  readonly transitions: number;
}

/** What every state carries. */
export interface ElectionMemory {
  readonly observed: Observation | undefined;
  /** Set while leading. */
  readonly term: Term | undefined;
  /** The last leadership emitted, `undefined` before the first. */
  readonly emitted: Leadership | undefined;
}

/**
 * - `idle`: not started.
 * - `waiting`: between tries; the next one is at `attemptAt`.
 * - `reading`: GET of the lease in flight.
 * - `writing`: create or PUT in flight, sent at `sentAt`; `fast` is a leader's renewal from its
 *   cached lease (a failure falls back to a GET at once); `renew`: a renewal was asked for
 *   meanwhile, so the next one follows at once.
 * - `releasing`: stopped; giving the lease up (GET, then PUT) until `until`.
 * - `stopped`: nothing more to do.
 */
export type ElectionState =
  | { readonly kind: 'idle'; readonly memory: ElectionMemory }
  | { readonly kind: 'waiting'; readonly memory: ElectionMemory; readonly attemptAt: number }
  | { readonly kind: 'reading'; readonly memory: ElectionMemory }
  | { readonly kind: 'writing'; readonly memory: ElectionMemory; readonly sentAt: number; readonly path: 'fast' | 'slow'; readonly renew?: true }
  | { readonly kind: 'releasing'; readonly memory: ElectionMemory; readonly until: number; readonly phase: 'reading' | 'writing' | 'waiting' }
  | { readonly kind: 'stopped'; readonly memory: ElectionMemory };

/** The time of an input (the elector's clock) and a random number in [0, 1) for jitter. */
interface Stamp {
  readonly now: number;
  readonly random: number;
}

/**
 * - `start`: subscribed. `attempt`: the retry timer fired. `deadline`: the term's (or the
 *   release's) deadline timer fired. `stop`: unsubscribed. `renew`: the holder asks for a renewal
 *   now rather than at the next retry (it has news to write on its Lease).
 * - `read` / `written` / `failed`: the request in flight ended.
 */
export type ElectionInput =
  | ({ readonly type: 'start' } & Stamp)
  | ({ readonly type: 'attempt' } & Stamp)
  | ({ readonly type: 'renew' } & Stamp)
  | ({ readonly type: 'deadline' } & Stamp)
  | ({ readonly type: 'stop' } & Stamp)
  | ({ readonly type: 'read'; readonly lease: Lease | undefined } & Stamp)
  | ({ readonly type: 'written'; readonly lease: Lease } & Stamp)
  | ({ readonly type: 'failed'; readonly error: unknown } & Stamp);

/**
 * - `get` / `create` / `update`: start that request (the only one in flight).
 * - `cancel`: abort the request in flight.
 * - `attemptAt`: arm the retry timer (replacing any). `deadlineAt`: arm the deadline timer
 *   (replacing any); `undefined` disarms it.
 * - `emit`: tell subscribers. `report`: a request failed. `finish`: nothing is left to do.
 */
export type ElectionEffect =
  | { readonly type: 'get' }
  | { readonly type: 'create'; readonly lease: Lease }
  | { readonly type: 'update'; readonly lease: Lease }
  | { readonly type: 'cancel' }
  | { readonly type: 'attemptAt'; readonly at: number }
  | { readonly type: 'deadlineAt'; readonly at: number | undefined }
  | { readonly type: 'emit'; readonly leadership: Leadership }
  | { readonly type: 'report'; readonly error: unknown }
  | { readonly type: 'finish' };

/** A transition's result: the next state and the effects, in order. */
export interface ElectionStep {
  readonly state: ElectionState;
  readonly effects: readonly ElectionEffect[];
}

/** Where every elector starts. */
export const initialElectionState: ElectionState = { kind: 'idle', memory: { observed: undefined, term: undefined, emitted: undefined } };
