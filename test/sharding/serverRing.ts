/* The ring the in-process server-side sharding specs run: ConfigMaps of namespace demo, member Leases in default. */
import type { ShardingConfig, ShardingEvent } from '../../src/sharding/shardingConfig.js';
import type { TestApiServer } from '../../src/testServer/testApiServer.js';

/** Lease timings short enough for a spec. */
export interface RingTiming { readonly leaseDurationMs: number; readonly renewDeadlineMs: number; readonly retryPeriodMs: number }

/** The config of replica `name` of ring `cms` in server mode, its events pushed to `events`. */
export function serverRing(server: TestApiServer, name: string, events: ShardingEvent[], timing: RingTiming): ShardingConfig & { readonly mode: 'server' } {
  return {
    kubeConfig: server.kubeConfig,
    ring: 'cms',
    namespace: 'default',
    resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' },
    mode: 'server',
    ...timing,
    identityPrefix: name,
    onEvent: (event) => events.push(event),
  };
}
