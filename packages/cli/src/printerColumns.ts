import { ageColumn, type Column } from './column.js';
import { compileJsonPath } from './compileJsonPath.js';
import { formatAge } from './formatAge.js';
import { field, list, text } from './objectFields.js';

/** The columns of a custom resource and what could not be used. */
export interface PrinterColumns {
  /** Between NAME and the end, in the CRD's order; kubectl's default (AGE) when the CRD has none. */
  readonly columns: readonly Column[];
  /** One line per column whose JSONPath could not be compiled (its cells show `<none>`). */
  readonly problems: readonly string[];
}

/**
 * The columns a CRD gives one version of its resource (`spec.versions[].additionalPrinterColumns`),
 * as the API server's table printer evaluates them: the header upper-cased, the first value the
 * JSONPath reaches, `date` as an age, `integer`, `number` and `boolean` as their text, `<none>` when
 * the path reaches nothing; a priority above 0 makes a wide column.
 *
 * @param crd the `apiextensions.k8s.io/v1` CustomResourceDefinition.
 * @param version the served version being watched.
 */
export function printerColumns(crd: unknown, version: string): PrinterColumns {
  const served = list(field(crd, 'spec', 'versions')).find((v) => v['name'] === version);
  const definitions = list(served?.['additionalPrinterColumns']);
  if (definitions.length === 0) return { columns: [ageColumn], problems: [] };
  const problems: string[] = [];
  const columns = definitions.map((definition): Column => {
    const header = text(definition['name'], '').toUpperCase();
    const type = text(definition['type'], 'string');
    let path: (value: unknown) => unknown[];
    try {
      path = compileJsonPath(text(definition['jsonPath'], ''));
    } catch (error) {
      problems.push(`column ${header}: ${(error as Error).message}`);
      path = () => [];
    }
    const column: Column = { header, value: (object, now) => cell(path(object)[0], type, now) };
    return typeof definition['priority'] === 'number' && definition['priority'] > 0 ? { ...column, wide: true } : column;
  });
  return { columns, problems };
}

function cell(value: unknown, type: string, now: number): string {
  if (value === undefined || value === null) return '<none>';
  switch (type) {
    case 'date':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? formatAge(value, now) : '<none>';
    case 'integer':
      return typeof value === 'number' ? String(Math.trunc(value)) : '<none>';
    case 'number':
      return typeof value === 'number' ? String(value) : '<none>';
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : '<none>';
    default:
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  }
}
