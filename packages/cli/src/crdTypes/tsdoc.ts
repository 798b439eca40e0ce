/**
 * A TSDoc comment at `indent`, from a schema's description and default, or `''` when there is
 * nothing to say. The description's text is kept as written (Kubernetes' descriptions are Go doc
 * comments: paragraphs and indented lists); `*\/` is broken up so that it cannot close the comment,
 * and an `@` that would start a tag is escaped. A paragraph that starts with `Deprecated:` (Go's
 * convention) adds `@deprecated`.
 *
 * ## Example
 * ```ts
 * tsdoc({ description: 'Port to listen on.', default: 80 }, '  ');
 * // → '  /**\n   * Port to listen on.\n   *\n   * @defaultValue `80`\n   *\/\n'
 * ```
 *
 * @param doc what to say.
 * @param indent the indentation of the commented declaration.
 */
export function tsdoc(doc: TsdocParts, indent: string): string {
  const lines: string[] = [];
  const description = doc.description?.trim() ?? '';
  if (description !== '') lines.push(...description.split('\n').map(escapeLine));
  if (doc.text !== undefined) lines.push(...doc.text.split('\n').map(escapeComment));
  const tags = [...(doc.tags ?? [])];
  if (doc.default !== undefined) tags.push(`@defaultValue ${inlineCode(JSON.stringify(doc.default))}`);
  if (/(^|\n\s*\n)\s*Deprecated:/.test(description) && !tags.some((tag) => tag.startsWith('@deprecated'))) tags.push('@deprecated');
  if (tags.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(...tags.map(escapeComment));
  }
  if (lines.length === 0) return '';
  // The opening is a string of its own, not '/**' then a line break in one literal: the CLI's bundle
  // carries no doc-comment text (packages/cli/test/bundleCli.spec.ts), and this is data, not a comment.
  const body = lines.map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`.trimEnd());
  return [indent + '/**', ...body, `${indent} */`, ''].join('\n');
}

/** What {@link tsdoc} makes a comment of. */
export interface TsdocParts {
  /** A schema's description: plain text, escaped so that nothing in it reads as TSDoc. */
  readonly description?: string | undefined;
  /** TSDoc written by the generator (`{@link …}` and all), after the description. */
  readonly text?: string;
  /** A schema's default (any JSON; absent: none), as `@defaultValue`. */
  readonly default?: unknown;
  /** Tag lines (`@deprecated …`). */
  readonly tags?: readonly string[];
}

/** One line of the description: the comment cannot be closed, and neither `@tag` at the start nor `{@link` is read as TSDoc. */
function escapeLine(line: string): string {
  return escapeComment(line.trimEnd())
    .replace(/^(\s*)@/, '$1\\@')
    .replace(/\{@/g, '{\\@');
}

function escapeComment(text: string): string {
  return text.replace(/\*\//g, '*\\/');
}

/** JSON text as TSDoc inline code, with a fence longer than any run of backticks in it. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  // JSON never starts or ends with a backtick, so the span needs no padding.
  return `${fence}${text}${fence}`;
}
