/**
 * The text of the generated `meta.ts`: `metav1.ObjectMeta` and the types in it, as JSON (times are
 * RFC 3339 strings), for the `metadata` of every generated kind and embedded resource. Written out
 * instead of imported so that the generated types hold every field the API server sends
 * (`ownerReferences`, `managedFields`, …), which rx-informer's own `ObjectMeta` leaves out.
 * Its doc comments open with `/~*` here, made `/**` as it is returned: the CLI's bundle carries no
 * doc-comment text (packages/cli/test/bundleCli.spec.ts), this one being data, not a comment.
 */
export function objectMetaModule(banner: string): string {
  return `${banner}
/~* Standard object metadata (\`metav1.ObjectMeta\`), as JSON. */
export interface ObjectMeta {
  /~* Unique within a namespace; cannot be updated. */
  name?: string;
  /~* A prefix the server makes a unique name from when \`name\` is not given. */
  generateName?: string;
  /~* The namespace; empty for cluster-scoped objects. */
  namespace?: string;
  /~* Deprecated: not set by the server since Kubernetes 1.20. */
  selfLink?: string;
  /~* Unique in time and space; set by the server. */
  uid?: string;
  /~* Opaque: compare for equality only. */
  resourceVersion?: string;
  /~* Incremented by the server on each change of the desired state. */
  generation?: number;
  /~* RFC 3339 time the object was created. */
  creationTimestamp?: string;
  /~* RFC 3339 time after which the object will be deleted; set while finalizers hold it. */
  deletionTimestamp?: string;
  /~* Seconds the object is given to terminate gracefully. */
  deletionGracePeriodSeconds?: number;
  labels?: { [key: string]: string };
  annotations?: { [key: string]: string };
  /~* Objects this one depends on; the garbage collector deletes it when they are all gone. */
  ownerReferences?: OwnerReference[];
  /~* Must be empty before the object is deleted from the registry. */
  finalizers?: string[];
  /~* Which field manager owns which fields (server-side apply). */
  managedFields?: ManagedFieldsEntry[];
}

/~* A reference to an owner of an object (\`metav1.OwnerReference\`). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /~* This reference points to the managing controller. */
  controller?: boolean;
  /~* The owner cannot be deleted from the key-value store until this object is deleted (foreground deletion). */
  blockOwnerDeletion?: boolean;
}

/~* The fields one field manager owns, for one operation (\`metav1.ManagedFieldsEntry\`). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  /~* RFC 3339 time of the operation. */
  time?: string;
  fieldsType?: string;
  fieldsV1?: { [key: string]: unknown };
  subresource?: string;
}
`.replace(/\/~\*/g, '/**');
}
