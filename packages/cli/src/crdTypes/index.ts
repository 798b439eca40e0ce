/**
 * `rx-informer-cli/crd-types`: what `rx-informer crd-types` does, as functions. Read CRDs from
 * files and folders ({@link readCrds}), from text ({@link crdsInText}) or from a live cluster
 * ({@link clusterCrds}), and turn them into TypeScript modules ({@link generateCrdTypes}), which
 * come back as `{ path, text }` for the caller to write where it likes.
 *
 * ## Example
 * ```ts
 * import { generateCrdTypes, readCrds } from 'rx-informer-cli/crd-types';
 *
 * for (const file of generateCrdTypes(await readCrds(['config/crd']))) console.log(file.path);
 * // meta.ts, example.com/v1/widgets.ts, example.com/v1/index.ts, …
 * ```
 */
export { clusterCrds } from './clusterCrds.js';
export { isCrd, type Crd, type CrdVersion, type SchemaProps } from './crd.js';
export { generateCrdTypes, type CrdTypesOptions, type GeneratedFile } from './generateCrdTypes.js';
export { crdsInText, readCrds } from './readCrds.js';
