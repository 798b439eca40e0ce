import type { Collection } from './objectStore.js';

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** `/api`: the core group's versions. @internal */
export function coreVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

/** `/apis`: every non-core group with its versions. @internal */
export function groupList(collections: readonly Collection[]): unknown {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupNames(collections).map((name) => apiGroup(collections, name)) };
}

/** `/apis/<group>`: one group, or undefined when no resource has it. @internal */
export function apiGroup(collections: readonly Collection[], group: string): Record<string, unknown> | undefined {
  const versions = [...new Set(collections.filter((c) => c.resource.group === group).map((c) => c.resource.version))];
  const [first] = versions;
  if (first === undefined) return undefined;
  const entries = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: entries, preferredVersion: entries[0] };
}

/** `/api/v1`, `/apis/<group>/<version>`: the resources of one group version, or undefined. @internal */
export function resourceList(collections: readonly Collection[], group: string, version: string): unknown {
  const inVersion = collections.filter((c) => c.resource.group === group && c.resource.version === version);
  if (inVersion.length === 0) return undefined;
  const resources = inVersion.flatMap((c) => {
    const r = c.resource;
    const main: Record<string, unknown> = {
      name: r.plural,
      singularName: r.singular ?? r.kind.toLowerCase(),
      namespaced: r.namespaced,
      kind: r.kind,
      verbs,
    };
    if (r.shortNames && r.shortNames.length > 0) main['shortNames'] = r.shortNames;
    const status = { name: `${r.plural}/status`, singularName: '', namespaced: r.namespaced, kind: r.kind, verbs: ['get', 'patch', 'update'] };
    return [main, status];
  });
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group === '' ? version : `${group}/${version}`, resources };
}

/** `/version`. @internal */
export function versionInfo(): unknown {
  return {
    major: '1',
    minor: '34',
    gitVersion: 'v1.34.0-rx-informer-test',
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

function groupNames(collections: readonly Collection[]): string[] {
  return [...new Set(collections.map((c) => c.resource.group).filter((g) => g !== ''))].sort();
}
