/**
 * The part of an `apiextensions.k8s.io/v1` CustomResourceDefinition that types are made from: its
 * names, scope and versions, each with its structural `openAPIV3Schema`.
 */
export interface Crd {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string };
  readonly spec: {
    readonly group: string;
    readonly names: { readonly kind: string; readonly plural: string; readonly singular?: string; readonly listKind?: string };
    readonly scope: 'Namespaced' | 'Cluster';
    readonly versions: readonly CrdVersion[];
  };
}

/** One version of a {@link Crd}. */
export interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  readonly schema?: { readonly openAPIV3Schema?: SchemaProps };
}

/**
 * A node of a structural schema (apiextensions `JSONSchemaProps`), as far as it shapes a type. The
 * logical junctors (`allOf`, `anyOf`, `oneOf`, `not`) are left out on purpose: in a structural
 * schema they only add value validations, never types (the types are all stated outside them).
 */
export interface SchemaProps {
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaProps>>;
  readonly required?: readonly string[];
  readonly items?: SchemaProps;
  readonly additionalProperties?: SchemaProps | boolean;
  readonly enum?: readonly unknown[];
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly format?: string;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
}

/** Whether a parsed YAML or JSON document is a v1 CustomResourceDefinition (v1beta1 ones are refused by {@link readCrds}). */
export function isCrd(document: unknown): document is Crd {
  if (typeof document !== 'object' || document === null) return false;
  const { apiVersion, kind, spec } = document as { apiVersion?: unknown; kind?: unknown; spec?: unknown };
  return kind === 'CustomResourceDefinition' && typeof apiVersion === 'string' && apiVersion.startsWith('apiextensions.k8s.io/') && typeof spec === 'object' && spec !== null;
}
