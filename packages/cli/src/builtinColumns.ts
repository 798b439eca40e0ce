import type { KubeObject } from 'rx-informer';
import { ageColumn, nameColumn, type Column } from './column.js';
import { count, field, labelsText, list, selectorText, templateContainers, text } from './objectFields.js';
import { podColumns } from './podColumns.js';

const wide = (header: string, value: Column['value']): Column => ({ header, value, wide: true });
const containers = wide('CONTAINERS', (o) => templateContainers(o, 'name'));
const images = wide('IMAGES', (o) => templateContainers(o, 'image'));
const selector = wide('SELECTOR', (o) => selectorText(field(o, 'spec', 'selector')));
/** AGE, then the wide CONTAINERS, IMAGES and SELECTOR of a workload with a pod template. */
const workloadTail: readonly Column[] = [ageColumn, containers, images, selector];
const number = (header: string, ...path: string[]): Column => ({ header, value: (o) => String(count(field(o, ...path))) });
const dataCount = (o: KubeObject, ...parts: string[]): number => parts.reduce((n, part) => n + Object.keys(objectOf(field(o, part))).length, 0);
const objectOf = (value: unknown): object => (value !== null && typeof value === 'object' ? value : {});

/** kubectl's columns for the built-in kinds it prints itself, NAME and AGE in their places; wide ones flagged. */
const byKind: Readonly<Record<string, readonly Column[]>> = {
  Pod: [nameColumn, ...podColumns[0], ageColumn, ...podColumns[1]],
  Node: [
    nameColumn,
    { header: 'STATUS', value: nodeStatus },
    { header: 'ROLES', value: nodeRoles },
    ageColumn,
    { header: 'VERSION', value: (n) => text(field(n, 'status', 'nodeInfo', 'kubeletVersion'), '') },
    wide('INTERNAL-IP', (n) => nodeAddress(n, 'InternalIP')),
    wide('EXTERNAL-IP', (n) => nodeAddress(n, 'ExternalIP')),
    wide('OS-IMAGE', (n) => text(field(n, 'status', 'nodeInfo', 'osImage'), '<unknown>')),
    wide('KERNEL-VERSION', (n) => text(field(n, 'status', 'nodeInfo', 'kernelVersion'), '<unknown>')),
    wide('CONTAINER-RUNTIME', (n) => text(field(n, 'status', 'nodeInfo', 'containerRuntimeVersion'), '<unknown>')),
  ],
  Namespace: [nameColumn, { header: 'STATUS', value: (n) => text(field(n, 'status', 'phase'), 'Active') }, ageColumn],
  ConfigMap: [nameColumn, { header: 'DATA', value: (c) => String(dataCount(c, 'data', 'binaryData')) }, ageColumn],
  Secret: [nameColumn, { header: 'TYPE', value: (s) => text(field(s, 'type'), 'Opaque') }, { header: 'DATA', value: (s) => String(dataCount(s, 'data')) }, ageColumn],
  Service: [
    nameColumn,
    { header: 'TYPE', value: (s) => text(field(s, 'spec', 'type'), 'ClusterIP') },
    { header: 'CLUSTER-IP', value: (s) => text(field(s, 'spec', 'clusterIP')) },
    { header: 'EXTERNAL-IP', value: serviceExternalIp },
    { header: 'PORT(S)', value: servicePorts },
    ageColumn,
    wide('SELECTOR', (s) => labelsText(field(s, 'spec', 'selector'))),
  ],
  Deployment: [
    nameColumn,
    { header: 'READY', value: (d) => `${count(field(d, 'status', 'readyReplicas'))}/${desired(d)}` },
    number('UP-TO-DATE', 'status', 'updatedReplicas'),
    number('AVAILABLE', 'status', 'availableReplicas'),
    ...workloadTail,
  ],
  ReplicaSet: [
    nameColumn,
    { header: 'DESIRED', value: (r) => String(desired(r)) },
    number('CURRENT', 'status', 'replicas'),
    number('READY', 'status', 'readyReplicas'),
    ...workloadTail,
  ],
  StatefulSet: [nameColumn, { header: 'READY', value: (s) => `${count(field(s, 'status', 'readyReplicas'))}/${desired(s)}` }, ageColumn, containers, images],
  DaemonSet: [
    nameColumn,
    number('DESIRED', 'status', 'desiredNumberScheduled'),
    number('CURRENT', 'status', 'currentNumberScheduled'),
    number('READY', 'status', 'numberReady'),
    number('UP-TO-DATE', 'status', 'updatedNumberScheduled'),
    number('AVAILABLE', 'status', 'numberAvailable'),
    { header: 'NODE SELECTOR', value: (d) => labelsText(field(d, 'spec', 'template', 'spec', 'nodeSelector')) },
    ...workloadTail,
  ],
};

/**
 * The columns kubectl prints for a built-in kind (Pod, Node, Namespace, ConfigMap, Secret,
 * Service, Deployment, ReplicaSet, StatefulSet, DaemonSet), or undefined for any other kind.
 *
 * @param kind e.g. `Pod`.
 */
export function builtinColumns(kind: string): readonly Column[] | undefined {
  return Object.hasOwn(byKind, kind) ? byKind[kind] : undefined;
}

/** `spec.replicas`, which the API server defaults to 1. */
function desired(object: KubeObject): number {
  const replicas = field(object, 'spec', 'replicas');
  return typeof replicas === 'number' ? replicas : 1;
}

function nodeStatus(node: KubeObject): string {
  const ready = list(field(node, 'status', 'conditions')).find((c) => c['type'] === 'Ready');
  const status = ready === undefined ? 'Unknown' : ready['status'] === 'True' ? 'Ready' : 'NotReady';
  return field(node, 'spec', 'unschedulable') === true ? `${status},SchedulingDisabled` : status;
}

/** `control-plane,worker` from the `node-role.kubernetes.io/<role>` labels (and `kubernetes.io/role`), `<none>` without. */
function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata?.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/') && key.length > 'node-role.kubernetes.io/'.length) roles.add(key.slice('node-role.kubernetes.io/'.length));
    else if (key === 'kubernetes.io/role' && value !== '') roles.add(value);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(node: KubeObject, type: string): string {
  return text(list(field(node, 'status', 'addresses')).find((a) => a['type'] === type)?.['address']);
}

/** kubectl's EXTERNAL-IP: the load balancer's ingress (`<pending>` until it has one), the external name, or the external IPs. */
function serviceExternalIp(service: KubeObject): string {
  const type = text(field(service, 'spec', 'type'), 'ClusterIP');
  const external = (field(service, 'spec', 'externalIPs') as unknown[] | undefined)?.filter((ip) => typeof ip === 'string') ?? [];
  if (type === 'ClusterIP' || type === 'NodePort') return external.length > 0 ? external.join(',') : '<none>';
  if (type === 'ExternalName') return text(field(service, 'spec', 'externalName'));
  if (type !== 'LoadBalancer') return '<unknown>';
  const ingress = list(field(service, 'status', 'loadBalancer', 'ingress')).map((i) => text(i['ip'], text(i['hostname'], ''))).filter((a) => a !== '');
  const all = [...ingress, ...external];
  return all.length > 0 ? all.join(',') : '<pending>';
}

/** kubectl's PORT(S): `80/TCP,443:30443/TCP`, `<none>` without ports. */
function servicePorts(service: KubeObject): string {
  const ports = list(field(service, 'spec', 'ports'));
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${count(p['port'])}${typeof p['nodePort'] === 'number' && p['nodePort'] !== 0 ? `:${p['nodePort']}` : ''}/${text(p['protocol'], 'TCP')}`).join(',');
}
