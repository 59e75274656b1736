import { Text } from '@mantine/core';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, ChartRange } from '../../../machines/monitoring/chart-range-machine.ts';
import { formatDate } from '../format-date.ts';
import { chartSummary, dataBeginsLate, pointTime, RANGE_LABEL, valueText } from './chart-text.ts';
import { OTHER_COLOURS } from './roles.ts';

const HEIGHT = 220;

const colourOf = (chart: ChartData, index: number) =>
  chart.lines[index]?.colour ?? (OTHER_COLOURS[index % OTHER_COLOURS.length] as string);

/**
 * Draws the step still under way (today so far) as partial: hatched, behind a dashed edge, marked
 * "so far", so a half day never reads as a collapse. For bars the hatch covers the last bar.
 */
function partialStep(chart: ChartData): uPlot.Plugin {
  return {
    hooks: {
      draw: (u) => {
        if (chart.partialFrom === null) return;
        const xs = u.data[0];
        const last = xs.length - 1;
        if (last < 0) return;
        const at = u.valToPos(chart.partialFrom / 1000, 'x', true);
        const before = last > 0 ? u.valToPos(xs[last - 1] as number, 'x', true) : at - 20;
        const left = chart.kind === 'bars' ? (at + before) / 2 : at;
        const right = u.bbox.left + u.bbox.width;
        const { ctx } = u;
        const tile = document.createElement('canvas');
        tile.width = 8;
        tile.height = 8;
        const pen = tile.getContext('2d');
        if (!pen) return;
        pen.strokeStyle = 'rgba(255, 255, 255, 0.85)';
        pen.lineWidth = 2;
        pen.beginPath();
        pen.moveTo(0, 8);
        pen.lineTo(8, 0);
        pen.stroke();
        ctx.save();
        const pattern = ctx.createPattern(tile, 'repeat');
        if (pattern) {
          ctx.fillStyle = pattern;
          ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
        }
        ctx.strokeStyle = '#495057';
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(left, u.bbox.top);
        ctx.lineTo(left, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillStyle = '#343a40';
        ctx.font = `${12 * devicePixelRatio}px sans-serif`;
        ctx.textAlign = 'right';
        ctx.fillText('so far', right - 4, u.bbox.top + 14 * devicePixelRatio);
        ctx.restore();
      },
    },
  };
}

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
 * out. It takes the width of its container and follows it. Times are on the clock of `timeZone`
 * (the site's): its axis, the point read out and the summary.
 */
export function TimeChart({
  chart,
  range,
  timeZone,
}: {
  chart: ChartData;
  range: ChartRange;
  timeZone?: string | undefined;
}) {
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
      ...(timeZone ? { tzDate: (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), timeZone) } : {}),
      plugins: [partialStep(chart)],
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
          stroke: colourOf(chart, index),
          width: 2,
          spanGaps: false,
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : valueText(v, line.unit)),
          ...(chart.kind === 'bars'
            ? {
                fill: `${colourOf(chart, index)}99`,
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
  }, [chart, data, unit, timeZone]);

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
  const begins = dataBeginsLate(chart);
  const pointText =
    cursor === null || at === undefined
      ? ''
      : `${pointTime(at * 1000, chart.kind, timeZone)}${
          chart.partialFrom !== null && at * 1000 >= chart.partialFrom ? ' (so far)' : ''
        }: ${chart.lines
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
        {begins !== null ? (
          <Text size="sm">
            Data from {formatDate(begins, { timeZone })} on: less than the {RANGE_LABEL[range].toLowerCase()}{' '}
            asked for.
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          {chartSummary(chart, range, timeZone)}
        </Text>
      </figcaption>
    </figure>
  );
}
