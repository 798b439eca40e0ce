/**
 * A terminal screen as an SVG picture: the text of `tmux capture-pane -p -e` (lines with SGR
 * escapes: bold, dim, strike-through, the 16 colours) on a dark terminal window. Every run of
 * text sits on the terminal's grid (`x` and `textLength` per run), so columns line up whatever
 * monospace font the viewer has.
 */

/** Options of {@link ansiToSvg}. */
export interface AnsiToSvgConfig {
  /** Columns of the terminal; lines are cut there. */
  readonly columns: number;
  /** A line of text in the window's title bar. */
  readonly title?: string;
  /** Font size in px (default 14); a cell is 0.6 of it wide and 1.4 of it high. */
  readonly fontSize?: number;
}

interface Style {
  bold: boolean;
  dim: boolean;
  strike: boolean;
  fg: number | undefined;
}

/** A dark palette for SGR colours 30–37 and 90–97 (black, red, green, yellow, blue, magenta, cyan, white). */
const palette = ['#3b3f45', '#f2777a', '#99cc99', '#ffcc66', '#6699cc', '#cc99cc', '#66cccc', '#d3d0c8', '#747369', '#f99157', '#b5e890', '#ffd479', '#8ab4f8', '#e6a5e6', '#7fe0e0', '#f2f0ec'];
const foreground = '#d3d0c8';
const background = '#1d1f21';

/**
 * Renders captured terminal lines as an SVG document.
 *
 * @param text the capture: lines separated by `\n`, SGR escapes (`ESC[…m`) kept, other escapes ignored.
 * @param config the terminal width and the picture's look.
 * @returns the SVG text.
 */
export function ansiToSvg(text: string, config: AnsiToSvgConfig): string {
  const fontSize = config.fontSize ?? 14;
  const cell = { width: fontSize * 0.6, height: fontSize * 1.4 };
  const pad = 16;
  const bar = config.title === undefined ? 0 : 30;
  const lines = text.replace(/\n+$/, '').split('\n');
  const width = Math.round(config.columns * cell.width + 2 * pad);
  const height = Math.round(lines.length * cell.height + 2 * pad + bar);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(config.title ?? 'terminal')}">`,
    `<rect width="${width}" height="${height}" rx="8" fill="${background}"/>`,
  ];
  if (config.title !== undefined) {
    out.push(
      ...['#ff5f56', '#ffbd2e', '#27c93f'].map((fill, i) => `<circle cx="${pad + 6 + i * 20}" cy="15" r="6" fill="${fill}"/>`),
      `<text x="${width / 2}" y="20" fill="#8d8d8d" font-family="sans-serif" font-size="12" text-anchor="middle">${escapeXml(config.title)}</text>`,
    );
  }
  out.push(`<g font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="${fontSize}" xml:space="preserve">`);
  const style: Style = { bold: false, dim: false, strike: false, fg: undefined };
  lines.forEach((line, row) => {
    const y = (pad + bar + (row + 0.8) * cell.height).toFixed(1);
    const runs: string[] = [];
    let column = 0;
    for (const [chunk, sgr] of tokens(line)) {
      if (sgr !== undefined) {
        applySgr(style, sgr);
        continue;
      }
      const chars = [...chunk].slice(0, Math.max(0, config.columns - column));
      if (chars.length === 0) continue;
      if (chars.join('').trim() !== '' || style.strike) runs.push(tspan(chars, pad + column * cell.width, style, cell.width));
      column += chars.length;
    }
    if (runs.length > 0) out.push(`<text y="${y}">${runs.join('')}</text>`);
  });
  out.push('</g>', '</svg>', '');
  return out.join('\n');
}

/** Text and SGR parameter strings of a line, in order; other escapes dropped. */
function* tokens(line: string): Generator<[string, string | undefined]> {
  const escape = /\x1b\[([0-9;?]*)([A-Za-z])/g;
  let at = 0;
  for (const match of line.matchAll(escape)) {
    if (match.index > at) yield [line.slice(at, match.index), undefined];
    if (match[2] === 'm') yield ['', match[1]!];
    at = match.index + match[0].length;
  }
  if (at < line.length) yield [line.slice(at), undefined];
}

function applySgr(style: Style, parameters: string): void {
  for (const code of (parameters === '' ? '0' : parameters).split(';').map(Number)) {
    if (code === 0) Object.assign(style, { bold: false, dim: false, strike: false, fg: undefined });
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 22) (style.bold = false), (style.dim = false);
    else if (code === 9) style.strike = true;
    else if (code === 29) style.strike = false;
    else if (code >= 30 && code <= 37) style.fg = code - 30;
    else if (code >= 90 && code <= 97) style.fg = code - 90 + 8;
    else if (code === 39) style.fg = undefined;
  }
}

function tspan(chars: readonly string[], x: number, style: Style, cellWidth: number): string {
  const attributes = [
    `x="${x.toFixed(1)}"`,
    `textLength="${(chars.length * cellWidth).toFixed(1)}"`,
    'lengthAdjust="spacingAndGlyphs"',
    `fill="${style.fg === undefined ? foreground : palette[style.fg]}"`,
    ...(style.bold ? ['font-weight="bold"'] : []),
    ...(style.dim ? ['fill-opacity="0.6"'] : []),
    ...(style.strike ? ['text-decoration="line-through"'] : []),
  ];
  return `<tspan ${attributes.join(' ')}>${escapeXml(chars.join(''))}</tspan>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
