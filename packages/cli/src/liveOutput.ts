import { emptySnapshot, type KubeObject, type Snapshot } from 'rx-informer';
import { formatIndexSummary, indexSummary } from './indexSummary.js';
import { createLiveScreen, type CliOutput } from './liveScreen.js';
import { renderScreen } from './renderScreen.js';
import { statusLine } from './statusText.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import type { WatchState } from './watchState.js';

/** Options of {@link createLiveOutput}. */
export interface LiveOutputConfig {
  readonly state: WatchState;
  /** A TTY. */
  readonly stdout: CliOutput;
  /** As typed, for the title until the resource is resolved. */
  readonly resource: string;
  readonly indexNames: readonly string[];
  readonly banner?: readonly string[];
  /** Frame period in ms (default 250). */
  readonly tickMs?: number;
  /** ANSI colours (default true; false for `--no-color` and `NO_COLOR`). */
  readonly color?: boolean;
}

/**
 * The live view on a terminal: takes the screen over at once and redraws it every tick (and on
 * resize) with {@link renderScreen}; on close, gives the terminal back and, after a clean stop,
 * leaves the last status and index summaries on it. Errors show on the screen, not on stderr.
 *
 * @param config the terminal, state and labels.
 */
export function createLiveOutput(config: LiveOutputConfig): WatchOutput {
  const { state, stdout, indexNames } = config;
  let watch: ResolvedWatch | undefined;
  let current: Snapshot<KubeObject> = emptySnapshot(indexNames);
  const frame = (): string[] => {
    const { width, height } = screen.size();
    return renderScreen(state, current, {
      width,
      height,
      now: Date.now(),
      title: watch?.title ?? `rx-informer watch ${config.resource}`,
      ...(config.banner ? { banner: config.banner } : {}),
      plural: watch?.resource.plural ?? config.resource,
      ...(watch?.namespace !== undefined ? { namespace: watch.namespace } : {}),
      columns: watch?.columns ?? [],
      indexNames,
      color: config.color ?? true,
    });
  };
  const draw = (): void => screen.draw(frame());
  const screen = createLiveScreen(stdout, draw);
  draw();
  return {
    tickMs: config.tickMs ?? 250,
    unreachable: draw,
    resolved: (resolved) => void (watch = resolved),
    status: () => undefined,
    update: (snapshot) => void (current = snapshot),
    synced: () => undefined,
    warning: () => undefined,
    tick: (snapshot) => {
      current = snapshot;
      draw();
    },
    close(summary) {
      screen.close();
      if (!summary || !watch) return;
      const width = screen.size().width;
      // Back on the normal screen the summary stays: wrapped at its parts, never cut off.
      stdout.write(`${wrapParts(statusLine(state, summary.snapshot, watch.resource.plural, Date.now()), width).join('\n')}\n`);
      for (const name of indexNames) stdout.write(`${formatIndexSummary(indexSummary(summary.snapshot, name, 10), width)}\n`);
    },
  };
}

/** `a · b · c` in lines of at most `width` characters, broken after a ` · `; continuation lines indented by two spaces. */
function wrapParts(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const part of line.split(' · ')) {
    const next = current === '' ? part : `${current} · ${part}`;
    if (next.length <= width || current === '') current = next;
    else {
      lines.push(`${current} ·`);
      current = `  ${part}`;
    }
  }
  return [...lines, current];
}
