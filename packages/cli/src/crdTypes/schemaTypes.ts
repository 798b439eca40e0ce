import type { SchemaProps } from './crd.js';
import { tsdoc } from './tsdoc.js';
import { pascalCase, propertyKey, type TypeNames } from './typeNames.js';

/** Where the declarations of one generated module go, and the names they may take. */
export interface SchemaModule {
  readonly names: TypeNames;
  /** The module's declarations, in order: an object type is declared before the ones it uses. */
  readonly declarations: string[];
  /** The type of `metadata` for embedded resources (the module imports it). */
  readonly objectMeta: string;
}

/** Members of an object type stated by the caller instead of from the schema (a kind's `apiVersion`, `kind`, `metadata`). */
export type FixedMembers = Readonly<Record<string, string>>;

/**
 * The TypeScript type of a structural schema node, declaring an interface named `name` (or `name`
 * with a number, see {@link TypeNames}) in `module` for every object with properties on the way:
 *
 * | schema | type |
 * | --- | --- |
 * | `x-kubernetes-int-or-string` | `number \| string` |
 * | `enum` of strings, numbers, booleans | their literal union |
 * | `type: string`, `integer`/`number`, `boolean` | `string`, `number`, `boolean` |
 * | `type: array` | `T[]` of its `items` (same name) |
 * | object with `properties` | an interface; `required` ones without `?`; `x-kubernetes-preserve-unknown-fields` adds `[key: string]: unknown` |
 * | object with `additionalProperties: schema` | `{ [key: string]: T }` (named `…Value` when it is an object) |
 * | object with `x-kubernetes-preserve-unknown-fields` or `additionalProperties: true` only | `{ [key: string]: unknown }` |
 * | object with neither (every field pruned) | `Record<string, never>` |
 * | `x-kubernetes-embedded-resource` | an interface with `apiVersion`, `kind`, `metadata` besides its properties |
 * | no `type` (only with preserve-unknown-fields) | `unknown` |
 * | `nullable: true` | `… \| null` |
 *
 * Descriptions and defaults become TSDoc on the members and interfaces. The logical junctors
 * (`allOf`, `anyOf`, `oneOf`, `not`) are not read: in a structural schema they only validate.
 *
 * @param schema the node.
 * @param name the name an object type here would want (`GatewaySpecListeners`).
 * @param module where declarations go.
 * @returns the type's text.
 */
export function schemaType(schema: SchemaProps, name: string, module: SchemaModule): string {
  const type = nonNullType(schema, name, module);
  return schema.nullable === true || schema.enum?.includes(null) === true ? `${type} | null` : type;
}

function nonNullType(schema: SchemaProps, name: string, module: SchemaModule): string {
  const literals = enumLiterals(schema.enum);
  if (literals !== undefined) return literals;
  if (schema['x-kubernetes-int-or-string'] === true) return 'number | string';
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const item = schemaType(schema.items ?? {}, name, module);
      return item.includes('|') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, name, module);
    default:
      // Structural schemas leave `type` out only under x-kubernetes-preserve-unknown-fields (any
      // JSON value) or x-kubernetes-int-or-string; a node with properties still reads as an object.
      return schema.properties !== undefined || schema['x-kubernetes-embedded-resource'] === true ? objectType(schema, name, module) : 'unknown';
  }
}

function objectType(schema: SchemaProps, name: string, module: SchemaModule): string {
  const properties = Object.keys(schema.properties ?? {});
  if (properties.length > 0 || schema['x-kubernetes-embedded-resource'] === true) return objectInterface(schema, name, module);
  const values = schema.additionalProperties;
  if (typeof values === 'object') return `{ [key: string]: ${schemaType(values, `${name}Value`, module)} }`;
  if (values === true || schema['x-kubernetes-preserve-unknown-fields'] === true) return '{ [key: string]: unknown }';
  return 'Record<string, never>';
}

/**
 * Declares an interface for an object schema in `module` and returns its name. The name is taken
 * (and the declaration's place kept) before the members are typed, so that an interface comes
 * before the interfaces of its members, and its members' names follow from its own.
 *
 * @param schema an object schema.
 * @param wanted the name it wants.
 * @param module where it goes.
 * @param fixed members typed by the caller, placed first (a kind's `apiVersion`, `kind`, `metadata`).
 * @param tags more TSDoc tag lines for the interface.
 * @returns the name it took.
 */
export function objectInterface(schema: SchemaProps, wanted: string, module: SchemaModule, fixed: FixedMembers = {}, tags: readonly string[] = []): string {
  const name = module.names.take(wanted);
  const at = module.declarations.push('') - 1;
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const members: string[] = [];
  const embedded: FixedMembers = schema['x-kubernetes-embedded-resource'] === true ? { apiVersion: 'string', kind: 'string', metadata: module.objectMeta } : {};
  const stated = { ...embedded, ...fixed };
  for (const [key, type] of Object.entries(stated)) {
    const property = properties[key];
    members.push(`${tsdoc({ description: property?.description }, '  ')}  ${propertyKey(key)}${required.has(key) ? '' : '?'}: ${type};`);
  }
  for (const [key, property] of Object.entries(properties)) {
    if (key in stated) continue;
    const type = schemaType(property, `${name}${pascalCase(key)}`, module);
    members.push(`${tsdoc(property, '  ')}  ${propertyKey(key)}${required.has(key) ? '' : '?'}: ${type};`);
  }
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties !== undefined) {
    // Structural schemas do not allow properties beside additionalProperties; should one come, its values are still JSON.
    members.push('  [key: string]: unknown;');
  }
  module.declarations[at] = `${tsdoc({ description: schema.description, tags }, '')}export interface ${name} {\n${members.join('\n')}${members.length > 0 ? '\n' : ''}}\n`;
  return name;
}

/**
 * An enum of JSON scalars as the union of their literal types (a `null` in it is left to
 * {@link schemaType}, which adds it once); `undefined` for no enum, one with objects or arrays in
 * it, or one of `null` alone.
 */
function enumLiterals(values: readonly unknown[] | undefined): string | undefined {
  const scalars = (values ?? []).filter((value) => value !== null);
  if (scalars.length === 0 || !scalars.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) return undefined;
  return [...new Set(scalars.map((value) => JSON.stringify(value)))].join(' | ');
}
