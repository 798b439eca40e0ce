import type { InternShape } from './internShape.js';

/**
 * Where in a Kubernetes object the store keeps one copy of a string for all objects
 * (`internal/internStrings.ts`). The places where metadata repeats across objects: the creation
 * timestamp (objects made in the same second), `generateName` (a controller's pods), label values
 * (an app's name, its chart, `part-of`), managedFields' manager, apiVersion and time, and owner
 * references (siblings share their owner). Values of up to 8 characters (`Update`, `FieldsV1`) are
 * one copy already: `JSON.parse` internalizes them. The memory estimate counts strings here as
 * shared. A browser bundle interns nothing and gets `internedPlaces.browser.ts` instead.
 *
 * Internal: nothing here is exported from the package.
 */
export const internedPlaces: InternShape = {
  metadata: {
    creationTimestamp: true,
    generateName: true,
    labels: { '*': true },
    managedFields: { '*': { manager: true, apiVersion: true, time: true } },
    ownerReferences: { '*': { apiVersion: true, kind: true, name: true, uid: true } },
  },
};
