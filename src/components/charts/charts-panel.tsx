import {
  Alert,
  Button,
  Group,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import {
  CHART_RANGES,
  type ChartData,
  type ChartRange,
  chartRangeMachine,
} from '../../../machines/monitoring/chart-range-machine.ts';
import { browserReadsAs, zoneName } from '../format-date.ts';
import { EmptyState } from '../page-state.tsx';
import { RANGE_LABEL } from './chart-text.ts';
import { TimeChart } from './time-chart.tsx';

const SHORT: Record<ChartRange, string> = { '24h': '24 h', '7d': '7 d', '30d': '30 d', '1y': '1 y' };

export interface ChartsPanelProps {
  /** Names the panel, e.g. "History of HX5K-24-000133". */
  label: string;
  /** Fetches every chart of a range (the chart-range machine's actor). */
  loadCharts: (range: ChartRange) => Promise<ChartData[]>;
  /** The site's IANA time zone: the charts' clock and days. */
  timeZone: string;
}

/**
 * A screen's charts over 24 h, 7 d, 30 d or a year: the chart-range machine loads the range the
 * person picks; the view draws its charts, says when one is loading or failed, and offers to try
 * again. Times are on the site's clock, named when the browser's reads otherwise. This module
 * carries uPlot, so screens load it lazily.
 */
export default function ChartsPanel({ label, loadCharts, timeZone }: ChartsPanelProps) {
  const actor = useActorRef(
    chartRangeMachine.provide({
      actors: {
        loadCharts: fromPromise<ChartData[], { range: ChartRange }>(({ input }) => loadCharts(input.range)),
      },
    }),
    { input: {} },
  );
  const range = useSelector(actor, (s) => s.context.range);
  const charts = useSelector(actor, (s) => s.context.charts);
  const error = useSelector(actor, (s) => (s.matches('failed') ? s.context.error : null));
  const loading = useSelector(actor, (s) => s.matches('loading'));
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" wrap="wrap">
        <SegmentedControl
          aria-label={`${label}: range`}
          value={range}
          onChange={(value) => actor.send({ type: 'range.select', range: value as ChartRange })}
          data={CHART_RANGES.map((r) => ({ value: r, label: SHORT[r] }))}
        />
        <Group gap="xs" role="status" aria-live="polite">
          {loading ? <Loader size="xs" aria-hidden /> : null}
          <Text size="sm" c="dimmed">
            {loading ? `Loading ${RANGE_LABEL[range].toLowerCase()}…` : RANGE_LABEL[range]}
          </Text>
        </Group>
      </Group>
      {error ? (
        <Alert color="red" role="alert" title="The charts could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            <Button size="xs" variant="light" onClick={() => actor.send({ type: 'charts.retry' })}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {browserReadsAs(timeZone) ? null : (
        <Text size="sm" c="dimmed">
          Times and days are the site's: {timeZone} ({zoneName(timeZone)}).
        </Text>
      )}
      {charts && charts.length === 0 ? (
        <EmptyState title="Nothing to chart">This device reports no power, charge or energy.</EmptyState>
      ) : null}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {(charts ?? []).map((chart) => (
          <Stack key={chart.key} gap={4} component="section" aria-label={chart.title}>
            <Title order={3} size="h5">
              {chart.title}
            </Title>
            <TimeChart chart={chart} range={range} timeZone={timeZone} />
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
