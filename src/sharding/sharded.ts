import type { Observable } from 'rxjs';
import { labelSharded } from './label/labelSharded.js';
import type { Shard } from './label/shard.js';
import { httpServerRing } from './server/httpServerRing.js';
import type { ServerShard } from './server/serverShard.js';
import { serverShardTerm } from './server/serverShardTerm.js';
import { memberTerms } from './memberTerms.js';
import { resolveShardingConfig, type LabelShardingConfig, type ServerShardingConfig, type ShardingConfig } from './shardingConfig.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * Runs one replica of a sharded controller in **label mode** (the default; `mode: 'server'` is the
 * other overload): N replicas share the primary objects of one kind, each reconciling only its own,
 * with no object reconciled by two replicas at once. Any Kubernetes version; a membership change
 * writes a label on every object that moves.
 *
 * <span class="informal">Every replica is a member of the ring while it holds its own Lease, and
 * runs `work` for that term only; one replica at a time is also the sharder, which labels the
 * objects with their owners.</span>
 *
 * ```text
 * member Lease <ring>-<identity>  ── term 1 ─────────x   (lost: work stops)   term 2 (new identity) ──
 * work(shard)                        ^ informers with shard.labelSelector, controller ─!   ^ ─────────
 * sharder Lease <ring>-sharder    ── leading on one replica: labelSharder() ────────────────────────────
 * ```
 *
 * - **Membership**: each term has a fresh identity and its own Lease (labelled
 *   `sharding.rx-informer.dev/ring=<ring>`), held with {@link leaderElection}. `work(shard)` is
 *   subscribed when the term begins and unsubscribed the moment it ends — renewDeadline after the
 *   last renewal that went through, whether or not the API server is reachable. A lost term is not
 *   resumed: the replica joins again under a new identity, and its objects come back through the
 *   ring.
 * - **Memory**: build the term's informers with `shard.listWatch(resource)` (or spread
 *   `shard.selector` into a source's options): the API server then sends a
 *   replica only its own objects (and a DELETED when one leaves it). The sharder (one replica) adds a
 *   metadata-only cache of every primary object.
 * - **Handover** (no object reconciled twice at once): from a live owner, by the drain handshake —
 *   the sharder sets the drain label, the owner's `shard.reconciler` lets the object go only after
 *   its running reconcile of it has finished, and only then is the object labelled for its new
 *   owner. From a dead owner, directly, once a fresh read shows its Lease unchanged for its whole
 *   duration: by then the owner's term has ended (leaseDuration − renewDeadline earlier, 5 s by
 *   default, with equal clock rates). Same limits as leader election: no fencing, a paused process
 *   or a reconcile that ignores its `AbortSignal` can outlive its term.
 * - **Stopping**: unsubscribe, or let `work` complete (a controller's graceful `shutdownOn`): then the
 *   term ends, the member Lease is released (its objects move at once), then the sharder's.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { informer, type KubeObject } from 'rx-informer';
 * import { controller, sharded } from 'rx-informer/controller';
 * declare function sync(object: KubeObject | undefined, signal: AbortSignal): Promise<void>; // assuming: your reconcile
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * sharded({ kubeConfig, ring: 'configmaps', namespace: 'demo', resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' } }, (shard) => {
 *   // Per term, and stopped when the term ends (a factory's informers run until its dispose()).
 *   const configMaps = informer(shard.listWatch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' }));
 *   return controller(configMaps, { reconcile: shard.reconciler((cm, { signal }) => sync(cm, signal)) });
 * }).subscribe();
 * ```
 *
 * @param config the ring, where its Leases live, the primary resource, durations, events.
 * @param work builds this replica's work for one term.
 * @returns what `work` emits, term after term; completes when a term's `work` completes.
 * @throws {TypeError} for a bad config (see {@link LabelShardingConfig}) or a `work` that is not a function.
 * @see {@link labelSharder}, {@link hashRing}
 */
export function sharded<T>(config: LabelShardingConfig, work: (shard: Shard) => Observable<T>): Observable<T>;
/**
 * Runs one replica of a sharded controller in **server mode** (`mode: 'server'`): N replicas share
 * the primary objects of one kind by hash ranges the API server filters on (KEP-5866
 * `shardSelector`; Kubernetes 1.36+ with kube-apiserver `--feature-gates=ShardedListAndWatch=true`),
 * each reconciling only its own, with no object reconciled by two replicas at once. No sharder runs;
 * no object is labelled or written.
 *
 * <span class="informal">Every replica is a member of the ring while it holds its own Lease; the
 * live members deal the hash space among themselves, and each runs `work` once per stretch of
 * unchanged ranges.</span>
 *
 * ```text
 * member Lease <ring>-<identity>  ── term 1: claim "view;ranges" rides on the renewals ──x   term 2 ──
 * work(shard)                        ^ stretch [r1] ─┤ ^ stretch [r1 ∪ r2] ─┤ ^ stretch [r1] ─!   ^ ──
 *                                    a member died: r2 gained ┘   one joined: r2 given up ┘
 * ```
 *
 * - **Membership**: as in label mode — each term has a fresh identity and its own Lease, and
 *   `work` runs only while the term lasts (renewDeadline after the last renewal that went through).
 * - **Ranges**: the 64-bit hash space of `shardField` (the uid by default) is cut into
 *   `shardBuckets` slices (64) dealt among the live members by {@link shardRanges}, the same in
 *   every replica. Build the stretch's informers with `shard.listWatch(resource)` (or spread
 *   `shard.selector`): the API server then lists and watches only its ranges. Wrap the reconciler
 *   with `shard.reconciler` and pass `shard.initialPriority` to the controller: a stretch starts
 *   with a fresh list, and the objects it has just been given run first.
 * - **Handover** (no hash worked on by two members at once): each member writes its view of the
 *   live members and the ranges it claims on its own Lease (annotation
 *   `sharding.rx-informer.dev/claim`), with a renewal out of turn when they change. It gives ranges
 *   up first (its stretch is stopped, its runs finish, then the narrower claim is written); it takes
 *   ranges only when every live peer has written the same view and none claims them, after its
 *   wider claim is written and a fresh LIST of the ring shows no live peer claiming them.
 * - **Timing** (measured on kube-apiserver with a 3 s lease): a killed member's ranges move about one
 *   lease duration after its last renewal (2.6–3.7 s), a member that stops cleanly releases its
 *   Lease and its ranges move at once; a killed member's Lease stays about 20 s (the first live
 *   member deletes it after two checks `4 × leaseDuration` apart). A join moves the newcomer's
 *   share, and a few percent between the old members as well, since the shares are dealt again (up
 *   to 3.4 % of the space from 2 members to 3).
 * - **Events**: every member emits `members` (its own view), `ranges` (its stretches), `joined` and
 *   `left`.
 * - A server without the feature ends the work with a {@link ShardSelectorError}. Same limits as
 *   leader election: no fencing; a paused process or a reconcile that ignores its `AbortSignal` can
 *   outlive its term.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { informer, type KubeObject } from 'rx-informer';
 * import { controller, sharded } from 'rx-informer/controller';
 * declare function sync(object: KubeObject | undefined, signal: AbortSignal): Promise<void>; // assuming: your reconcile
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const resource = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' };
 * sharded({ kubeConfig, ring: 'configmaps', namespace: 'demo', resource, mode: 'server' }, (shard) => {
 *   // Per stretch of unchanged ranges, and stopped when they change or the term ends.
 *   const configMaps = informer(shard.listWatch(resource));
 *   return controller(configMaps, { initialPriority: shard.initialPriority, reconcile: shard.reconciler((cm, { signal }) => sync(cm, signal)) });
 * }).subscribe();
 * ```
 *
 * @param config the ring, where its Leases live, the primary resource, `mode: 'server'`, the hashed field, durations, events.
 * @param work builds this replica's work for one stretch of ranges.
 * @returns what `work` emits, stretch after stretch and term after term; completes when a stretch's `work` completes.
 * @throws {TypeError} for a bad config (see {@link ServerShardingConfig}) or a `work` that is not a function.
 * @see {@link shardRanges}, {@link ServerShard}
 */
export function sharded<T>(config: ServerShardingConfig, work: (shard: ServerShard) => Observable<T>): Observable<T>;
export function sharded<T>(config: ShardingConfig, work: ((shard: Shard) => Observable<T>) | ((shard: ServerShard) => Observable<T>)): Observable<T> {
  const c = resolveShardingConfig(config, 'sharded');
  if (typeof work !== 'function') throw argumentError('sharded', 'work must be a function (shard) => Observable');
  if (c.mode === 'server') return memberTerms(c, (identity) => serverShardTerm(c, identity, () => httpServerRing(c), work as (shard: ServerShard) => Observable<T>));
  return labelSharded(c, work as (shard: Shard) => Observable<T>);
}
