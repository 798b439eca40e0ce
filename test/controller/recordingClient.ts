/** A ResourceClient that records creates, patches and gets (and can fail the next few creates and patches); a get answers `state.live`; everything else rejects. */
import type { ResourceClient } from '../../src/client/resourceClient.js';
import type { KubeObject } from '../../src/store/kubeObject.js';

export interface RecordedCall {
  readonly verb: 'create' | 'patch' | 'get';
  readonly body: Record<string, unknown>;
  readonly target?: unknown;
  readonly type?: string;
}

export function recordingClient() {
  const calls: RecordedCall[] = [];
  const state = { failures: 0, error: new Error('boom') as unknown, live: undefined as KubeObject | undefined };
  const fail = (): Promise<never> | undefined => (state.failures > 0 ? (state.failures--, Promise.reject(state.error)) : undefined);
  const unused = () => Promise.reject(new Error('not used'));
  const client: ResourceClient = {
    get: (target) => (calls.push({ verb: 'get', body: {}, target }), Promise.resolve(state.live as never)),
    replace: unused,
    edit: unused,
    apply: unused,
    delete: unused,
    close: () => undefined,
    create: (object) => fail() ?? (calls.push({ verb: 'create', body: object as unknown as Record<string, unknown> }), Promise.resolve(object)),
    patch: (target, body, options) => fail() ?? (calls.push({ verb: 'patch', body: body as Record<string, unknown>, target, type: options.type }), Promise.resolve({} as never)),
  };
  return { client, calls, state };
}
