/*
 * JSON data as YAML, written the way `kubectl -o yaml` writes it (sigs.k8s.io/yaml over go-yaml v2),
 * so the two can be diffed: keys in go-yaml's order, sequences at their key's indentation, strings
 * plain when they read back as the same string, 'single-quoted' when an indicator forbids plain,
 * "double-quoted" when they would read back as something else (true, 1.5, a date, ""), multi-line
 * strings as literal blocks, and long plain lines folded at spaces past column 80.
 */

const bestWidth = 80;

/**
 * One YAML document for a JSON value (no leading `---`), ending with a newline.
 *
 * ## Example
 * ```ts
 * toYaml({ kind: 'Pod', metadata: { name: 'web', labels: { tier: 'true' } } });
 * // → 'kind: Pod\nmetadata:\n  labels:\n    tier: "true"\n  name: web\n'
 * ```
 *
 * @param value what `JSON.parse` gives (objects, arrays, strings, numbers, booleans, null).
 */
export function toYaml(value: unknown): string {
  return `${(isBlock(value) ? block(value, 0) : scalar(value, false, 0, 0)).join('\n')}\n`;
}

/** A non-empty map or list: written as a block; empty ones are `{}` and `[]`. */
function isBlock(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/** The lines of a non-empty map or list at `indent`. */
function block(value: Record<string, unknown> | unknown[], indent: number): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => listItem(item, indent));
  return Object.keys(value).sort(goYamlKeyOrder).flatMap((key) => mapEntry(key, value[key], indent));
}

function mapEntry(key: string, child: unknown, indent: number): string[] {
  const head = `${' '.repeat(indent)}${scalar(key, true, indent, indent)[0]}:`;
  if (Array.isArray(child) && child.length > 0) return [head, ...block(child, indent)]; // a sequence sits at its key's indentation
  if (isBlock(child)) return [head, ...block(child, indent + 2)];
  const [first, ...rest] = scalar(child, false, indent + 2, head.length + 1);
  return [`${head} ${first}`, ...rest];
}

function listItem(item: unknown, indent: number): string[] {
  const dash = `${' '.repeat(indent)}- `;
  if (!isBlock(item)) {
    const [first, ...rest] = scalar(item, false, indent + 2, dash.length);
    return [`${dash}${first}`, ...rest];
  }
  const [first, ...rest] = block(item, indent + 2);
  return [`${dash}${first!.slice(indent + 2)}`, ...rest];
}

/** A scalar's text as lines (more than one for a literal block or a folded line); `column` is where it starts. */
function scalar(value: unknown, isKey: boolean, indent: number, column: number): string[] {
  if (value === null || value === undefined) return ['null'];
  if (typeof value === 'boolean' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return ['[]'];
  if (typeof value === 'object') return ['{}'];
  const text = String(value);
  if (!isKey && text.includes('\n') && literalAllowed(text)) return literal(text, indent);
  if (text.includes('\n') || /[\x00-\x08\x0b-\x1f\x7f]/.test(text)) return [JSON.stringify(text)];
  if (!readsAsString(text)) return [JSON.stringify(text)];
  if (plainAllowed(text)) return isKey ? [text] : fold(text, indent, column);
  return isKey ? [`'${text.replace(/'/g, "''")}'`] : fold(`'${text.replace(/'/g, "''")}'`, indent, column);
}

/** Whether go-yaml would read `text`, unquoted, back as this string (not a bool, null, number, date). */
function readsAsString(text: string): boolean {
  if (text === '' || text === '<<') return false;
  if (/^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL)$/.test(text)) return false;
  if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(text)) return false;
  if (/^[-+.0-9]/.test(text)) {
    const plain = text.replace(/_/g, '');
    if (/^[-+]?(0b[01]+|0o?[0-7]+|0x[0-9a-fA-F]+|[0-9]+)$/.test(plain)) return false; // Go's ParseInt, base 0
    if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(plain)) return false; // ParseFloat
    if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(text)) return false; // base 60
  }
  return !/^\d{4}-\d\d?-\d\d?(([Tt]|[ \t]+)\d\d?:\d\d:\d\d(\.\d*)?([ \t]*(Z|[-+]\d\d?(:\d\d)?))?)?$/.test(text); // a timestamp
}

/** go-yaml's rule for a plain scalar in block context: no leading or trailing space, no indicator where it means something. */
function plainAllowed(text: string): boolean {
  if (text.startsWith(' ') || text.endsWith(' ') || text.startsWith('---') || text.startsWith('...')) return false;
  if (/^[#,[\]{}&*!|>'"%@`]/.test(text)) return false;
  if (/^[-?:](\s|$)/.test(text)) return false;
  return !/: |:$| #|\t/.test(text);
}

/** A literal block needs no trailing space before a line break and no leading space-only lines at the end. */
function literalAllowed(text: string): boolean {
  return !/[ \t]\n|[\x00-\x08\x0b-\x1f\x7f]/.test(text) && !/\n[ \t]+$/.test(text);
}

/** `|`, `|-` or `|+` with the lines indented; an indentation digit when the first line starts with a space. */
function literal(text: string, indent: number): string[] {
  const body = text.replace(/\n+$/, '');
  const trailing = text.length - body.length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const lines = (trailing > 1 ? text.slice(0, -1) : body).split('\n');
  const pad = ' '.repeat(Math.max(indent, 2));
  const indicator = /^[ \t]/.test(body) ? '2' : ''; // go-yaml's indentation step
  return [`|${indicator}${chomp}`, ...lines.map((line) => (line === '' ? '' : `${pad}${line}`))];
}

/** Breaks a long line at single spaces once past column 80, continuing at `indent`, as go-yaml's emitter does. */
function fold(text: string, indent: number, column: number): string[] {
  if (column + text.length <= bestWidth || !text.includes(' ')) return [text];
  const lines: string[] = [];
  let line = '';
  let at = column;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' && at > bestWidth && text[i + 1] !== ' ' && text[i - 1] !== ' ' && i + 1 < text.length) {
      lines.push(line);
      line = ' '.repeat(indent);
      at = indent;
      continue;
    }
    line += c;
    at++;
  }
  lines.push(line);
  return lines;
}

/** go-yaml v2's map key order: by character, except that runs of digits compare as numbers and non-letters sort before letters. */
export function goYamlKeyOrder(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = /\p{L}/u.test(ar[i]!);
    const bl = /\p{L}/u.test(br[i]!);
    if (al && bl) return ar[i]! < br[i]! ? -1 : 1;
    if (al || bl) return bl ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && /\d/.test(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && /\d/.test(ar[ai]!); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && /\d/.test(br[bi]!); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ar[i]! < br[i]! ? -1 : 1;
  }
  return ar.length - br.length;
}
