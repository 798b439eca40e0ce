import type { Collection } from './objectStore.js';
import { jsonOf, metadataJsonOf, type StoredObject } from './storedObject.js';
import { tableOf } from './table.js';

/** Annotation on the bookmark that ends the initial events of a streaming list. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/** How one watch writes its objects: as stored, metadata only, or as Tables. @internal */
export interface WatchEncoding {
  readonly contentType: string;
  /** An object's JSON in this watch's representation (the first Table of a watch carries the columns). */
  objectJson(stored: StoredObject): string;
  /** A BOOKMARK's object at `rv`; `initialEventsEnd` marks the end of a streaming list's initial events. */
  bookmarkJson(rv: number, initialEventsEnd: boolean): string;
}

/**
 * The {@link WatchEncoding} of a watch on `collection`: metadata only (`PartialObjectMetadata`),
 * Tables (`tableIncludeObject` given), or the objects as stored. @internal
 */
export function watchEncoding(collection: Collection, metadataOnly: boolean, tableIncludeObject: string | undefined): WatchEncoding {
  let firstTable = true;
  return {
    contentType:
      tableIncludeObject !== undefined ? 'application/json;as=Table;g=meta.k8s.io;v=v1' : metadataOnly ? 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' : 'application/json',
    objectJson(stored) {
      if (tableIncludeObject === undefined) return metadataOnly ? metadataJsonOf(stored) : jsonOf(stored);
      // Like the real server, only the first Table of a watch carries the column definitions.
      const table = tableOf(collection.resource.kind, [stored], String(stored.rv), undefined, tableIncludeObject, firstTable);
      firstTable = false;
      return JSON.stringify(table);
    },
    bookmarkJson: (rv, initialEventsEnd) =>
      JSON.stringify({
        kind: metadataOnly ? 'PartialObjectMetadata' : collection.resource.kind,
        apiVersion: metadataOnly ? 'meta.k8s.io/v1' : collection.apiVersion,
        metadata: initialEventsEnd ? { resourceVersion: String(rv), annotations: { [initialEventsEndAnnotation]: 'true' } } : { resourceVersion: String(rv) },
      }),
  };
}
