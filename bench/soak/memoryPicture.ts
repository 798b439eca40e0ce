/**
 * The soak's heap and RSS over time as a small SVG: one line per process (heap solid, RSS dashed),
 * fault times as ticks along the bottom. Written by `npm run soak:cluster` when SOAK_SVG is set.
 */
export function memoryPicture(samples: ReadonlyArray<{ process: string; at: number; heapUsed: number; rss: number }>, faults: ReadonlyArray<{ at: number; kind: string }>): string {
  const width = 720;
  const height = 300;
  const pad = { left: 52, right: 140, top: 16, bottom: 36 };
  const tMax = Math.max(1, ...samples.map((s) => s.at), ...faults.map((f) => f.at));
  const mMax = Math.max(1, ...samples.map((s) => s.rss)) / 2 ** 20;
  const x = (at: number): number => pad.left + (Math.max(0, at) / tMax) * (width - pad.left - pad.right);
  const y = (bytes: number): number => height - pad.bottom - (bytes / 2 ** 20 / mMax) * (height - pad.top - pad.bottom);
  const processes = [...new Set(samples.map((s) => s.process))].sort();
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#7f7f7f'];
  const path = (points: Array<[number, number]>): string => points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
  const lines = processes.flatMap((name, i) => {
    const own = samples.filter((s) => s.process === name).sort((a, b) => a.at - b.at);
    const colour = colours[i % colours.length]!;
    return [
      `<path d="${path(own.map((s) => [x(s.at), y(s.heapUsed)]))}" fill="none" stroke="${colour}" stroke-width="1.5"/>`,
      `<path d="${path(own.map((s) => [x(s.at), y(s.rss)]))}" fill="none" stroke="${colour}" stroke-width="1" stroke-dasharray="4 3"/>`,
      `<text x="${width - pad.right + 8}" y="${pad.top + 14 * i + 10}" font-size="11" fill="${colour}">${name}</text>`,
    ];
  });
  const ticks = faults.map((f) => `<line x1="${x(f.at).toFixed(1)}" x2="${x(f.at).toFixed(1)}" y1="${height - pad.bottom}" y2="${height - pad.bottom + 6}" stroke="#444"><title>${f.kind}</title></line>`);
  const axis = [0, 0.5, 1].map((f) => `<text x="${pad.left - 6}" y="${y(f * mMax * 2 ** 20) + 4}" font-size="10" text-anchor="end">${(f * mMax).toFixed(0)} MiB</text>`);
  const step = tMax > 12 * 60_000 ? 5 : 1; // minutes between labels
  const minutes = Array.from({ length: Math.floor(tMax / 60_000 / step) + 1 }, (_, i) => `<text x="${x(i * step * 60_000)}" y="${height - 8}" font-size="10" text-anchor="middle">${i * step} min</text>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${pad.left}" x2="${width - pad.right}" y1="${height - pad.bottom}" y2="${height - pad.bottom}" stroke="#999"/>`,
    ...axis,
    ...minutes,
    ...lines,
    ...ticks,
    `<text x="${width - pad.right + 8}" y="${height - pad.bottom - 20}" font-size="10">solid: heap</text>`,
    `<text x="${width - pad.right + 8}" y="${height - pad.bottom - 6}" font-size="10">dashed: RSS; ticks: faults</text>`,
    '</svg>',
    '',
  ].join('\n');
}
