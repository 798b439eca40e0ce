import test from 'ava';
import { collectionPath } from '../../../src/client/resolveResource.js';
import { acceptOf, listPath, watchPath } from '../../../src/sources/http/listWatchRequests.js';

// The request builders both transports send: pure, so a table each.

const pods = collectionPath('', 'v1', 'pods', 'web');
const deployments = collectionPath('apps', 'v1', 'deployments', undefined);

test('listPath: selectors, resourceVersion and its match, limit and continue, in that order; nothing → the bare path', (t) => {
  const rows: Array<[Parameters<typeof listPath>[1], Parameters<typeof listPath>[2], string]> = [
    [{}, {}, '/api/v1/namespaces/web/pods'],
    [{}, { resourceVersion: '0', limit: 500 }, '/api/v1/namespaces/web/pods?resourceVersion=0&limit=500'],
    [{ labelSelector: 'app=web', fieldSelector: 'spec.nodeName=n1' }, { limit: 2, continue: 'abc' }, '/api/v1/namespaces/web/pods?labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3Dn1&limit=2&continue=abc'],
    [{}, { resourceVersion: '42', resourceVersionMatch: 'NotOlderThan' }, '/api/v1/namespaces/web/pods?resourceVersion=42&resourceVersionMatch=NotOlderThan'],
  ];
  for (const [shape, request, path] of rows) t.is(listPath(pods, shape, request), path);
});

test('watchPath: watch=true, selectors, resourceVersion, streaming list, bookmarks always, the timeout', (t) => {
  t.is(watchPath(deployments, {}, { resourceVersion: '7', timeoutSeconds: 300, allowWatchBookmarks: true }), '/apis/apps/v1/deployments?watch=true&resourceVersion=7&allowWatchBookmarks=true&timeoutSeconds=300');
  t.is(
    watchPath(pods, { labelSelector: 'a in (x,y)' }, { resourceVersion: '', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, timeoutSeconds: 60, allowWatchBookmarks: true }),
    '/api/v1/namespaces/web/pods?watch=true&labelSelector=a+in+%28x%2Cy%29&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&allowWatchBookmarks=true&timeoutSeconds=60',
  );
});

test('acceptOf: JSON, or PartialObjectMetadata(List) when metadata only', (t) => {
  t.is(acceptOf({}, 'list'), 'application/json');
  t.is(acceptOf({}, 'watch'), 'application/json');
  t.is(acceptOf({ metadataOnly: true }, 'list'), 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
  t.is(acceptOf({ metadataOnly: true }, 'watch'), 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
});
