/** Thrown when a JSON patch cannot be applied; the server answers 422 with its message. */
export class JsonPatchError extends Error {
  override readonly name = 'JsonPatchError';
}

type Json = unknown;

/**
 * Applies an RFC 6902 JSON patch (`add`, `remove`, `replace`, `move`, `copy`, `test`), as
 * `kubectl patch --type=json` sends it.
 *
 * @returns A new document; `document` is not modified.
 * @throws {JsonPatchError} for a malformed operation, a missing path or a failed `test`.
 */
export function applyJsonPatch(document: Json, operations: unknown): Json {
  if (!Array.isArray(operations)) throw new JsonPatchError('a JSON patch must be an array of operations');
  let doc: Json = structuredClone(document);
  for (const op of operations as Record<string, unknown>[]) {
    const kind = op?.['op'];
    const path = pointer(op?.['path']);
    switch (kind) {
      case 'add':
        doc = put(doc, path, structuredClone(op['value']), 'add');
        break;
      case 'replace':
        get(doc, path);
        doc = put(doc, path, structuredClone(op['value']), 'replace');
        break;
      case 'remove':
        doc = remove(doc, path);
        break;
      case 'move': {
        const from = pointer(op['from']);
        const value = get(doc, from);
        doc = put(remove(doc, from), path, value, 'add');
        break;
      }
      case 'copy':
        doc = put(doc, path, structuredClone(get(doc, pointer(op['from']))), 'add');
        break;
      case 'test': {
        // As json-patch v4 (the API server's): an absent member of an existing parent tests equal to null.
        const parent = path.length === 0 ? undefined : parentOf(doc, path);
        const absent = parent !== undefined && child(parent, path[path.length - 1]!) === undefined;
        const actual = absent ? null : get(doc, path);
        if (JSON.stringify(actual) !== JSON.stringify(op['value'] ?? null)) throw new JsonPatchError(`testing value /${path.join('/')} failed`);
        break;
      }
      default:
        throw new JsonPatchError(`unexpected kind of operation: ${JSON.stringify(kind)}`);
    }
  }
  return doc;
}

function pointer(value: unknown): string[] {
  if (typeof value !== 'string' || (value !== '' && !value.startsWith('/'))) throw new JsonPatchError(`invalid JSON pointer: ${JSON.stringify(value)}`);
  return value === '' ? [] : value.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function child(container: Json, key: string): Json {
  if (Array.isArray(container)) return container[Number(key)];
  if (container !== null && typeof container === 'object' && Object.prototype.hasOwnProperty.call(container, key)) return (container as Record<string, Json>)[key];
  return undefined;
}

function get(doc: Json, path: readonly string[]): Json {
  let current = doc;
  for (const key of path) {
    current = child(current, key);
    if (current === undefined) throw new JsonPatchError(`path /${path.join('/')} does not exist`);
  }
  return current;
}

function parentOf(doc: Json, path: readonly string[]): Json {
  const parent = get(doc, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') throw new JsonPatchError(`path /${path.join('/')} has no container`);
  return parent;
}

function put(doc: Json, path: readonly string[], value: Json, mode: 'add' | 'replace'): Json {
  if (path.length === 0) return value;
  const parent = parentOf(doc, path);
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new JsonPatchError(`index ${key} is out of bounds`);
    if (mode === 'add') parent.splice(index, 0, value);
    else parent[index] = value;
  } else {
    Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return doc;
}

function remove(doc: Json, path: readonly string[]): Json {
  if (path.length === 0) throw new JsonPatchError('cannot remove the whole document');
  get(doc, path);
  const parent = parentOf(doc, path);
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete (parent as Record<string, Json>)[key];
  return doc;
}
