/**
 * Loads ConfigMaps into the etcd behind the test cluster's kube-apiserver directly (etcd's JSON
 * gateway, `POST /v3/kv/txn`, one put per transaction, 32 in flight), where
 * their creates through the apiserver fit ~5,000 into a 15-minute turn on the shared machine. The
 * apiserver reads JSON from etcd as well as protobuf (its storage codec falls back to the universal
 * deserializer, storage_codec.go), and its watch cache follows etcd, so the objects should list and
 * watch as if created through it: each gets a uid, a creationTimestamp and one managedFields entry
 * as a create would; admission and validation are skipped (the bodies are valid). For benchmarks
 * only.
 *
 * One put per transaction, so each object has a revision of its own as a create through the
 * apiserver would: with 128 puts per transaction (20,000 in 1.6 s), a consistent LIST served all
 * 100,000, but the apiserver's watch cache, which takes one object per revision, served 99,879 (a
 * run of 121 consecutive names missing) and an informer listing from it never saw the rest.
 * bench:sharding now also waits until the watch cache serves every object.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';

/** A transaction of one put of `value` under `key` to `etcdUrl` (http): each object gets its own revision (see above). */
function put(etcdUrl: string, key: string, value: string): Promise<void> {
  const body = JSON.stringify({ success: [{ requestPut: { key: Buffer.from(key).toString('base64'), value: Buffer.from(value).toString('base64') } }] });
  const url = new URL('/v3/kv/txn', etcdUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: url.pathname, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`etcd txn: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Puts ConfigMaps `from..to-1` of `namespace` (which must exist) into etcd under `/registry`,
 * `body(i)` giving each one's name, labels and data.
 */
export async function loadThroughEtcd(etcdUrl: string, namespace: string, from: number, to: number, body: (i: number) => { metadata: { name: string; labels?: Record<string, string> }; data: Record<string, string> }): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  let next = from;
  const runner = async (): Promise<void> => {
    while (next < to) {
      const { metadata, data } = body(next++);
      const fields = { 'f:data': Object.fromEntries([['.', {}], ...Object.keys(data).map((k) => [`f:${k}`, {}])]), ...(metadata.labels ? { 'f:metadata': { 'f:labels': Object.fromEntries([['.', {}], ...Object.keys(metadata.labels).map((k) => [`f:${k}`, {}])]) } } : {}) };
      const object = {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { ...metadata, namespace, uid: randomUUID(), creationTimestamp: now, managedFields: [{ manager: 'rx-informer-bench-loader', operation: 'Update', apiVersion: 'v1', time: now, fieldsType: 'FieldsV1', fieldsV1: fields }] },
        data,
      };
      await put(etcdUrl, `/registry/configmaps/${namespace}/${metadata.name}`, JSON.stringify(object));
    }
  };
  await Promise.all(Array.from({ length: 32 }, runner));
}
