import { informer } from 'rx-informer';
import { configMap, fakeListWatch } from 'rx-informer/testing';

const api = fakeListWatch([configMap('a', { namespace: 'demo' }), configMap('b', { namespace: 'demo' })]);
const configMaps = informer(api.events$);
const changes = configMaps.changes$.subscribe({ next: (change) => console.log(change.type, change.key), error: console.error }); // errors if the source fails for good
const connection = configMaps.connect(); // runs the List+Watch (and keeps the cache) until unsubscribed
const synced = await configMaps.whenSynced({ timeoutMs: 10_000 });
console.log(`synced: ${synced.size} objects at resourceVersion ${synced.resourceVersion}`);
api.modify(configMap('a', { namespace: 'demo', data: { mode: 'fast' } }));
api.delete('demo/b');
setTimeout(() => (console.log([...configMaps.snapshot.keys()]), changes.unsubscribe(), connection.unsubscribe()), 10);
