/**
 * What `kubectl get` says for an empty list shown as a table (on stderr, so stdout stays empty):
 * `No resources found in <namespace> namespace.` when one namespace was asked for, `No resources
 * found` for all namespaces or a cluster-scoped resource. kubectl says nothing for `-o name`, `json`
 * or `yaml` (nor does `kubectl get -w`, which this CLI otherwise follows).
 *
 * @param namespace the one namespace watched, or `undefined` for all namespaces or a cluster-scoped resource.
 * @returns the line, without its newline.
 */
export function noResourcesFound(namespace: string | undefined): string {
  return namespace === undefined ? 'No resources found' : `No resources found in ${namespace} namespace.`;
}
