/** The soak's fault injection (bench/soak/faults.ts) where it does not need a cluster: which replica a network cut hits. */
import test from 'ava';
import { inject } from '../../bench/soak/faults.js';
import type { FaultProxy, ProxyMode } from '../../bench/soak/faultProxy.js';
import { rng } from '../../bench/soak/rng.js';

/** A proxy that only records the modes it was put in. */
function recordingProxy(): FaultProxy & { readonly modes: ProxyMode[] } {
  const modes: ProxyMode[] = [];
  return {
    modes,
    get mode() {
      return modes.at(-1) ?? 'pass';
    },
    set mode(mode: ProxyMode) {
      modes.push(mode);
    },
  } as FaultProxy & { readonly modes: ProxyMode[] };
}

test('a network cut while the lease still names a replica that was killed cuts a live replica instead', async (t) => {
  const live = { informers: recordingProxy(), 'replica-2': recordingProxy(), 'replica-3': recordingProxy() };
  const proxies = new Map<string, FaultProxy>(Object.entries(live));
  // Over many seeds, the coin that picks the leader comes up for it about half of the time.
  for (let seed = 1; seed <= 20; seed++) {
    const what = await inject('networkCut', { root: '.', proxies: () => proxies, leader: async () => 'replica-1', killReplica: async () => undefined, holdMs: 0 }, rng(seed));
    t.regex(what, /^replica-[23] cut off 0 ms$/);
  }
  t.is(live['replica-2'].modes.length + live['replica-3'].modes.length, 40, 'each cut put one proxy in blackhole and back');
  t.deepEqual(live.informers.modes, []);
});
