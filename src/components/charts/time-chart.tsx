import { Text } from '@mantine/core';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, ChartRange } from '../../../machines/monitoring/chart-range-machine.ts';
import { chartSummary, pointTime, valueText } from './chart-text.ts';

/** Line colours: dark enough against white for lines and their legend (3:1 for graphics). */
const COLORS = ['#0b7285', '#c2410c', '#5f3dc4', '#2b8a3e'];
const HEIGHT = 220;

let canvasWorks: boolean | undefined;
/**
 * Whether this browser draws on a canvas (some privacy settings and headless DOMs give no 2D
 * context). Without one the chart is its text alternative only, rather than a drawing that throws.
 */
function canDraw(): boolean {
  if (canvasWorks === undefined) {
    try {
      canvasWorks = document.createElement('canvas').getContext('2d') !== null;
    } catch {
      canvasWorks = false;
    }
  }
  return canvasWorks;
}

/** The lines of a chart on one time axis (seconds), gaps where a line has no point. */
function alignedData(chart: ChartData): uPlot.AlignedData {
  const tables = chart.lines.map(
    (line) => [line.points.map(([t]) => t / 1000), line.points.map(([, v]) => v)] as uPlot.AlignedData,
  );
  if (tables.length === 1) return tables[0] as uPlot.AlignedData;
  return uPlot.join(tables);
}

/**
 * One time-series chart drawn by uPlot (canvas) with its text alternative: the range and each
 * line's minimum, maximum and latest, under the chart. The chart is a focusable group: the left
 * and right arrow keys (Home, End) move a cursor over the points, and the value under it is read
 * out. It takes the width of its container and follows it.
 */
export function TimeChart({ chart, range }: { chart: ChartData; range: ChartRange }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const summaryId = useId();
  const unit = chart.lines[0]?.unit ?? '';
  const data = alignedData(chart);
  const xs = data[0] as ArrayLike<number>;

  useEffect(() => {
    const target = box.current;
    if (!target || !canDraw()) return;
    const options: uPlot.Options = {
      width: Math.max(240, target.clientWidth),
      height: HEIGHT,
      // Bars start at zero, so their heights compare; lines fit their values.
      scales: {
        x: { time: true },
        ...(chart.kind === 'bars'
          ? {
              y: {
                range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [
                  0,
                  max > 0 ? max * 1.1 : 1,
                ],
              },
            }
          : {}),
      },
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      axes: [{}, { values: (_u, ticks) => ticks.map((v) => valueText(v, unit)), size: 70 }],
      series: [
        {},
        ...chart.lines.map((line, index) => ({
          label: line.label,
          stroke: COLORS[index % COLORS.length] as string,
          width: 2,
          spanGaps: false,
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : valueText(v, line.unit)),
          ...(chart.kind === 'bars'
            ? {
                fill: `${COLORS[index % COLORS.length]}99`,
                paths: uPlot.paths.bars?.({ size: [0.7, 60] }),
                points: { show: false },
              }
            : {}),
        })),
      ],
    };
    const instance = new uPlot(options, data, target);
    plot.current = instance;
    const resize = new ResizeObserver(() => {
      instance.setSize({ width: Math.max(240, target.clientWidth), height: HEIGHT });
    });
    resize.observe(target);
    return () => {
      resize.disconnect();
      instance.destroy();
      plot.current = null;
    };
  }, [chart, data, unit]);

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const count = xs.length;
    if (count === 0) return;
    const keys: Record<string, (i: number) => number> = {
      ArrowRight: (i) => Math.min(count - 1, i + 1),
      ArrowLeft: (i) => Math.max(0, i - 1),
      Home: () => 0,
      End: () => count - 1,
    };
    const step = keys[event.key];
    if (!step) return;
    event.preventDefault();
    const index = step(cursor ?? count - 1);
    setCursor(index);
    const u = plot.current;
    if (u) u.setCursor({ left: u.valToPos(xs[index] as number, 'x'), top: HEIGHT / 3 });
  };

  // A cursor left from a longer range, or a chart with no points, points at nothing.
  const at = cursor === null ? undefined : xs[cursor];
  const pointText =
    cursor === null || at === undefined
      ? ''
      : `${pointTime(at * 1000, chart.kind)}: ${chart.lines
          .map((line, i) => {
            const v = (data[i + 1] as ArrayLike<number | null>)[cursor];
            return `${line.label} ${v === null || v === undefined ? 'no data' : valueText(v, line.unit)}`;
          })
          .join(', ')}`;

  return (
    <figure style={{ margin: 0 }}>
      <div
        ref={box}
        role="slider"
        tabIndex={0}
        aria-label={`${chart.title}: the left and right arrow keys move over the points`}
        aria-valuemin={0}
        aria-valuemax={Math.max(0, xs.length - 1)}
        aria-valuenow={cursor ?? Math.max(0, xs.length - 1)}
        aria-valuetext={pointText || 'No point chosen'}
        aria-describedby={summaryId}
        onKeyDown={move}
        style={{ width: '100%', minHeight: HEIGHT }}
      />
      <Text size="sm" mih={20}>
        {pointText}
      </Text>
      <figcaption id={summaryId}>
        <Text size="sm" c="dimmed">
          {chartSummary(chart, range)}
        </Text>
      </figcaption>
    </figure>
  );
}
