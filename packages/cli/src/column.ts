import type { KubeObject } from 'rx-informer';
import { formatAge } from './formatAge.js';

/** A column of the table: its header and how to get its text from an object at a time. */
export interface Column {
  readonly header: string;
  readonly value: (object: KubeObject, now: number) => string;
  /** Shown only with `-o wide` (kubectl's wide columns; a printer column with a priority above 0). */
  readonly wide?: boolean;
  /** Never cut to fit the screen (NAME): the others shrink first. */
  readonly keep?: boolean;
}

/** NAME: `metadata.name`, never cut. */
export const nameColumn: Column = { header: 'NAME', value: (object) => object.metadata?.name ?? '', keep: true };

/** AGE: since `metadata.creationTimestamp`, as kubectl prints it. */
export const ageColumn: Column = {
  header: 'AGE',
  value: (object, now) => formatAge(typeof object.metadata?.creationTimestamp === 'string' ? object.metadata.creationTimestamp : undefined, now),
};

/** NAMESPACE, first when a namespaced resource is watched in every namespace. */
export const namespaceColumn: Column = { header: 'NAMESPACE', value: (object) => object.metadata?.namespace ?? '' };
