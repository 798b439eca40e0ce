/**
 * The ConfigMapSet operator: a ConfigMapSet (crd.yaml) names ConfigMaps and their data; the operator
 * creates them, owned by the set, keeps them as the spec says (a child edited by hand is put back,
 * one no longer named is deleted), reports a Ready condition in the status, records Events, and
 * holds the set with a finalizer until its ConfigMaps are gone.
 *
 * Built from rx-informer/controller: controller() over two shared informers (the sets, and the
 * ConfigMaps they own, indexed by owner), finalizer(), createOrUpdate(), edit() of the status
 * subresource, eventRecorder() and, optionally, serveHealthProbes().
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { readFile } from 'node:fs/promises';
import { defer, EMPTY, Observable, tap } from 'rxjs';
import { informerFactory, predicateFilter, predicates, stripManagedFields, type KubeObject } from 'rx-informer';
import {
  byControllerOwner,
  controller,
  ControllerError,
  createOrUpdate,
  eventRecorder,
  finalizer,
  informersReady,
  ownedBy,
  resourceClient,
  serveHealthProbes,
  terminal,
  type ControllerOutcome,
  type FinalizerContext,
  type HealthProbeServer,
  type Leadership,
  type ResourceClient,
} from 'rx-informer/controller';

export const apiVersion = 'demo.rx-informer.dev/v1';
export const kind = 'ConfigMapSet';
/** Held on every set until its ConfigMaps are deleted. */
export const finalizerName = 'demo.rx-informer.dev/cleanup';
/** Put on every ConfigMap of a set, naming it (for people; the operator follows ownerReferences). */
export const setLabel = 'demo.rx-informer.dev/set';
const fieldManager = 'configmapset-controller';
const reportingController = 'demo.rx-informer.dev/configmapset-controller';

export interface ConfigMapSetCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
  readonly observedGeneration?: number;
  readonly lastTransitionTime?: string;
}

export interface ConfigMapSet extends KubeObject {
  readonly spec?: { readonly configMaps?: Readonly<Record<string, Readonly<Record<string, string>>>> };
  readonly status?: { readonly observedGeneration?: number; readonly configMaps?: number; readonly conditions?: readonly ConfigMapSetCondition[] };
}

export interface ConfigMap extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}

/** The resource as the in-process test API server serves it (`createTestApiServer({ resources })`). */
export const configMapSetResource = { group: 'demo.rx-informer.dev', version: 'v1', plural: 'configmapsets', kind, namespaced: true, statusSubresource: true, shortNames: ['cmset'] } as const;

export interface OperatorOptions {
  readonly kubeConfig: KubeConfig;
  /** Only this namespace (default: all). */
  readonly namespace?: string;
  /** The Events' reportingInstance (default: the host name). */
  readonly instance?: string;
  /** Graceful shutdown: the first emission stops taking work; running reconciles finish. */
  readonly shutdownOn?: Observable<unknown>;
  readonly concurrency?: number;
  /** Serve /healthz and /readyz here; `onProbes` learns the address. */
  readonly probes?: { readonly port: number; readonly host?: string };
  readonly onProbes?: (server: HealthProbeServer) => void;
  /** One line per change the operator makes. */
  readonly log?: (line: string) => void;
  /** How often a set is looked at again when nothing changed (default 5 min). */
  readonly resyncMs?: number;
  /** Reconcile only while this replica leads (`leaderElection()`); the informers run on followers too with `warmReplicas`. */
  readonly leadership?: Observable<Leadership>;
  /** With `leadership`: followers keep their caches synced, so a new leader starts warm. Default false. */
  readonly warmReplicas?: boolean;
  /**
   * Called when a run of a set starts and when it ends, with the run's number (counted across every
   * subscription of this operator, the same at start and end): a soak checks no set is run twice at
   * once, by two replicas or by one across two leadership terms.
   */
  readonly onRun?: (phase: 'start' | 'end', key: string, set: ConfigMapSet | undefined, run: number) => void;
}

/**
 * The operator as a cold Observable of reconcile outcomes: subscribing starts it (informers,
 * probes), unsubscribing stops it; `shutdownOn` stops it gracefully.
 */
export function configMapSetOperator(options: OperatorOptions): Observable<ControllerOutcome> {
  const { kubeConfig, namespace, instance, shutdownOn, concurrency = 4, probes, onProbes, log = () => undefined, resyncMs = 300_000, onRun, leadership, warmReplicas } = options;
  let runs = 0;
  return defer(() => {
    const factory = informerFactory(kubeConfig, { transform: stripManagedFields });
    const scope = namespace ? { namespace } : {};
    const sets = factory.informer<ConfigMapSet>({ apiVersion, kind, ...scope });
    const configMaps = factory.informer<ConfigMap>({ version: 'v1', plural: 'configmaps', ...scope }, { indexers: { owner: byControllerOwner } });
    const client = resourceClient(kubeConfig, { fieldManager });
    const recorder = eventRecorder(client, { controller: reportingController, ...(instance ? { instance } : {}) });

    const apply = async (set: ConfigMapSet, { signal }: FinalizerContext): Promise<{ readonly requeueAfterMs?: number }> => {
      const setNamespace = set.metadata!.namespace!;
      const wanted = Object.entries(set.spec?.configMaps ?? {});
      const invalid = wanted.map(([key]) => key).filter((key) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(key) || `${set.metadata!.name}-${key}`.length > 253);
      if (invalid.length > 0) {
        const message = `spec.configMaps keys must be DNS labels: ${invalid.join(', ')}`;
        await recorder.publish({ type: 'Warning', reason: 'InvalidSpec', action: 'Reconcile', note: message, regarding: set }, { signal });
        await writeStatus(client, set, { status: 'False', reason: 'InvalidSpec', message }, ownedBy(configMaps.snapshot, set, 'owner').length, signal);
        throw terminal(new Error(message));
      }
      const names = new Set<string>();
      for (const [key, data] of wanted) {
        const name = `${set.metadata!.name}-${key}`;
        names.add(name);
        const desired: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: setNamespace, labels: { [setLabel]: set.metadata!.name! } }, data: { ...data } };
        const { result } = await createOrUpdate(client, configMaps.snapshot.get(setNamespace, name), desired, { owner: set, signal });
        if (result === 'unchanged') continue;
        const reason = result === 'created' ? 'Created' : 'Updated';
        log(`${reason.toLowerCase()} ConfigMap ${setNamespace}/${name}`);
        await recorder.publish({ type: 'Normal', reason, action: `${reason === 'Created' ? 'Create' : 'Update'}ConfigMap`, note: `${reason.toLowerCase()} ConfigMap ${name}`, regarding: set, related: desired }, { signal });
      }
      for (const child of ownedBy(configMaps.snapshot, set, 'owner')) {
        if (names.has(child.metadata!.name!)) continue;
        await client.delete(child, { preconditions: { uid: child.metadata!.uid! }, signal });
        log(`deleted ConfigMap ${setNamespace}/${child.metadata!.name}`);
        await recorder.publish({ type: 'Normal', reason: 'Deleted', action: 'DeleteConfigMap', note: `deleted ConfigMap ${child.metadata!.name}`, regarding: set, related: child }, { signal });
      }
      await writeStatus(client, set, { status: 'True', reason: 'Reconciled', message: `${names.size} ConfigMaps as specified` }, names.size, signal);
      return { requeueAfterMs: resyncMs };
    };

    const cleanup = async (set: ConfigMapSet, { signal }: FinalizerContext): Promise<{ readonly requeueAfterMs?: number }> => {
      for (const child of ownedBy(configMaps.snapshot, set, 'owner')) {
        await client.delete(child, { preconditions: { uid: child.metadata!.uid! }, signal });
        log(`deleted ConfigMap ${child.metadata!.namespace}/${child.metadata!.name}`);
      }
      await recorder.publish({ type: 'Normal', reason: 'CleanedUp', action: 'Finalize', note: 'deleted the ConfigMaps of the set', regarding: set }, { signal });
      log(`cleaned up ${set.metadata!.namespace}/${set.metadata!.name}`);
      return {};
    };

    const outcomes = controller(sets, {
      owns: [configMaps],
      // Not on our own status writes: the spec (generation), the finalizers, the deletion.
      filter: predicateFilter(predicates.combine(predicates.generation, predicates.finalizers, (set: ConfigMapSet) => String(set.metadata?.deletionTimestamp ?? ''))),
      concurrency,
      reconcile: async (set, { signal, ref }) => {
        const key = `${ref.namespace}/${ref.name}`;
        const run = ++runs;
        onRun?.('start', key, set, run);
        try {
          return set === undefined ? undefined : await finalizer(client, finalizerName, set, { apply, cleanup }, { signal });
        } finally {
          onRun?.('end', key, set, run);
        }
      },
      ...(shutdownOn ? { shutdownOn } : {}),
      ...(leadership ? { leadership, ...(warmReplicas !== undefined ? { warmReplicas } : {}) } : {}),
    });
    const probes$ = probes ? serveHealthProbes({ ...probes, readiness: { informers: informersReady([sets, configMaps]) } }).pipe(tap((server) => onProbes?.(server))) : EMPTY;
    // The probes serve for as long as the controller runs.
    return new Observable<ControllerOutcome>((subscriber) => {
      const probing = probes$.subscribe({ error: (error: unknown) => subscriber.error(error) });
      const running = outcomes.subscribe(subscriber);
      return () => {
        running.unsubscribe();
        probing.unsubscribe();
        client.close();
        factory.dispose();
      };
    });
  });
}

/** Writes observedGeneration, the ConfigMap count and the Ready condition, when they differ. */
async function writeStatus(client: ResourceClient, set: ConfigMapSet, ready: Omit<ConfigMapSetCondition, 'type'>, count: number, signal?: AbortSignal): Promise<void> {
  const generation = set.metadata?.generation;
  await client.edit(
    set,
    (draft) => {
      const status = (draft.status ??= {});
      status.observedGeneration = generation;
      status.configMaps = count;
      const conditions = (status.conditions ??= []);
      const current = conditions.find((c) => c.type === 'Ready');
      const next = { type: 'Ready', ...ready, observedGeneration: generation };
      if (current === undefined) conditions.push({ ...next, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
      else if (current.status !== ready.status) Object.assign(current, next, { lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
      else Object.assign(current, next);
    },
    { subresource: 'status', ...(signal ? { signal } : {}) },
  );
}

/**
 * Installs the CRD of crd.yaml (an existing one is left as it is) and waits until the API server
 * serves it (`Established`).
 */
export async function installCrd(kubeConfig: KubeConfig, timeoutMs = 30_000): Promise<void> {
  const { loadYaml } = await import('@kubernetes/client-node');
  const crd = loadYaml<KubeObject>(await readFile(new URL('./crd.yaml', import.meta.url), 'utf8'));
  const client = resourceClient(kubeConfig, { fieldManager });
  try {
    await client.create(crd).catch((error: unknown) => {
      if (!(error instanceof ControllerError && error.reason === 'conflict')) throw error; // AlreadyExists
    });
    const deadline = Date.now() + timeoutMs;
    const target = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: crd.metadata!.name! };
    for (;;) {
      const current = await client.get<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>(target);
      if (current?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
      if (Date.now() > deadline) throw new Error(`the CRD ${target.name} was not established within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100)); // polling the condition, not waiting it out
    }
  } finally {
    client.close();
  }
}
