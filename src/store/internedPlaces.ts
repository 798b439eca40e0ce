/**
 * Where in a Kubernetes object the store keeps one copy of a string for all objects
 * (`internal/internStrings.ts`), as a tree: member names, `'*'` for any member or element, `true`
 * for the string there. The places where metadata repeats across objects: the creation timestamp
 * (objects made in the same second), `generateName` (a controller's pods), label values (an app's
 * name, its chart, `part-of`), managedFields' manager, apiVersion and time, and owner references
 * (siblings share their owner). Values of up to 8 characters (`Update`, `FieldsV1`) are one copy
 * already: `JSON.parse` internalizes them. The memory estimate counts strings here as shared.
 *
 * Internal: nothing here is exported from the package.
 */
export interface InternShape {
  readonly [member: string]: InternShape | true;
}

/** The places of a Kubernetes object whose string values the store interns, from its root. */
export const internedPlaces: InternShape = {
  metadata: {
    creationTimestamp: true,
    generateName: true,
    labels: { '*': true },
    managedFields: { '*': { manager: true, apiVersion: true, time: true } },
    ownerReferences: { '*': { apiVersion: true, kind: true, name: true, uid: true } },
  },
};

/** The shape below `shape` at `key` (a member name or an index), if any. */
export function placeBelow(shape: InternShape | undefined, key: string): InternShape | true | undefined {
  return shape === undefined ? undefined : (shape[key] ?? shape['*']);
}
