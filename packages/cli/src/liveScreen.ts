/** The part of a stream the CLI writes to: `process.stdout`, or a fake in tests. */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

/** A full-screen view on a terminal that is redrawn in place. */
export interface LiveScreen {
  /** Current terminal size. */
  size(): { width: number; height: number };
  /** Replaces the screen's content with `lines` (no scrolling, no flicker: one write). */
  draw(lines: readonly string[]): void;
  /** Leaves the alternate screen and shows the cursor again; idempotent. */
  close(): void;
}

const enter = '\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J';
const leave = '\x1b[?25h\x1b[?1049l';

/**
 * Takes over a terminal like `top` or `watch` do: the alternate screen, the cursor hidden, each
 * frame drawn from the home position with every line cleared to its end and the rest of the screen
 * cleared below, in one write. {@link LiveScreen.close} gives the terminal back as it was.
 *
 * @param out a TTY stream.
 * @param onResize called when the terminal changes size (to redraw at once).
 */
export function createLiveScreen(out: CliOutput, onResize?: () => void): LiveScreen {
  let open = true;
  const resized = (): void => onResize?.();
  // Whatever happens, do not leave the terminal on the alternate screen with the cursor hidden.
  const atExit = (): void => screen.close();
  out.write(enter);
  out.on?.('resize', resized);
  process.once('exit', atExit);
  const screen: LiveScreen = {
    size: () => ({ width: Math.max(20, out.columns || 80), height: Math.max(5, out.rows || 24) }),
    draw(lines) {
      if (!open) return;
      const { height } = screen.size();
      out.write(`\x1b[H${lines.slice(0, height).join('\x1b[K\r\n')}\x1b[K\x1b[J`);
    },
    close() {
      if (!open) return;
      open = false;
      out.off?.('resize', resized);
      process.off('exit', atExit);
      out.write(leave);
    },
  };
  return screen;
}
