import { builtinColumns } from './builtinColumns.js';
import { ageColumn, nameColumn, namespaceColumn, type Column } from './column.js';

/** Options of {@link columnsFor}. */
export interface ColumnsForConfig {
  /** `-o wide`: keep the wide columns. */
  readonly wide?: boolean;
  /** Objects are `PartialObjectMetadata`: only NAME and AGE make sense. */
  readonly metadataOnly?: boolean;
  /** A NAMESPACE column first. */
  readonly namespaced?: boolean;
  /** The columns of a custom resource, from its CRD (see `printerColumns`); NAME comes first. */
  readonly custom?: readonly Column[];
}

/**
 * The columns `kubectl get` shows for a kind, in kubectl's order: its own printer for the built-in
 * kinds it knows (pods: NAME READY STATUS RESTARTS AGE, and IP NODE NOMINATED NODE READINESS GATES
 * with `-o wide`), the CRD's printer columns for a custom resource, NAME and AGE otherwise.
 *
 * @param kind the resource's kind, e.g. `Pod`.
 * @param config wide, metadata-only, namespace column, custom columns.
 */
export function columnsFor(kind: string, config: ColumnsForConfig = {}): readonly Column[] {
  const all = config.metadataOnly ? [nameColumn, ageColumn] : config.custom ? [nameColumn, ...config.custom] : (builtinColumns(kind) ?? [nameColumn, ageColumn]);
  const shown = config.wide ? all : all.filter((column) => !column.wide);
  return config.namespaced ? [namespaceColumn, ...shown] : shown;
}
