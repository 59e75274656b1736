import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconArrowRight, IconBattery2, IconBolt, IconHome, IconSun } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ComponentType } from 'react';
import { fromPromise } from 'xstate';
import type { SiteEnergyToday, SiteNow } from '../../../contracts/monitoring.ts';
import type { MonitoringRole } from '../../../contracts/monitoring-terms.ts';
import { siteNowMachine } from '../../../machines/monitoring/site-now-machine.ts';
import { fetchSiteNow } from '../../api/monitoring-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { directionWord, IDLE_W, ROLE_LOOK } from '../../components/charts/roles.ts';
import { formatSiteTime, formatTime } from '../../components/format-date.ts';
import { PageLoading } from '../../components/page-state.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';

/** Power as a person reads it: kW to one decimal from 1 kW, else whole watts. */
export function powerText(watts: number): string {
  const size = Math.abs(watts);
  return size >= 1000
    ? `${(size / 1000).toLocaleString(undefined, { maximumFractionDigits: 1, minimumFractionDigits: 1 })} kW`
    : `${Math.round(size).toLocaleString()} W`;
}

const kwhText = (value: number) =>
  `${value.toLocaleString(undefined, { maximumFractionDigits: value >= 100 ? 0 : 1 })} kWh`;
const percentText = (value: number) => `${Math.round(value).toLocaleString()} %`;

/** Where a role's power flows: from which part of the site to which ("Home → Grid" while exporting). */
function flowOf(role: MonitoringRole, watts: number): { from: string; to: string } | null {
  if (Math.abs(watts) < IDLE_W) return null;
  switch (role) {
    case 'production':
      return { from: 'Solar', to: 'Home' };
    case 'grid':
      return watts > 0 ? { from: 'Grid', to: 'Home' } : { from: 'Home', to: 'Grid' };
    case 'battery':
      return watts > 0 ? { from: 'Home', to: 'Battery' } : { from: 'Battery', to: 'Home' };
    default:
      return null;
  }
}

const ICONS: Partial<Record<MonitoringRole, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>>> = {
  production: IconSun,
  consumption: IconHome,
  grid: IconBolt,
  battery: IconBattery2,
};

/**
 * One node of the flow: the role's name and colour, its power without sign, and which way it
 * flows in words and with an arrow ("exporting, Home → Grid"); a role no device reports says so.
 */
function FlowNode({ of: role, watts, extra }: { of: MonitoringRole; watts: number | null; extra?: string }) {
  const look = ROLE_LOOK[role];
  const Icon = ICONS[role] ?? IconBolt;
  const flow = watts === null ? null : flowOf(role, watts);
  const word = watts === null ? '' : directionWord(role, watts);
  return (
    <Card
      withBorder
      padding="sm"
      component="section"
      aria-label={look.name}
      style={{ borderTop: `4px solid ${look.colour}` }}
    >
      <Group gap={6} wrap="nowrap">
        <span style={{ color: look.colour, display: 'inline-flex' }}>
          <Icon size={20} aria-hidden />
        </span>
        {/* Two tiles a row on a phone: "Home consumption" is hyphenated there, not cut anywhere. */}
        <Text size="sm" fw={600} style={{ hyphens: 'auto' }}>
          {look.name}
        </Text>
      </Group>
      {watts === null ? (
        <Text size="sm" c="dimmed" mt={4}>
          No device reports it
        </Text>
      ) : (
        <>
          <Text fz={22} fw={700} data-testid={`flow-${role}`}>
            {powerText(watts)}
          </Text>
          <Text size="sm" data-testid={`direction-${role}`}>
            {word}
            {flow ? (
              <>
                {', '}
                {flow.from}
                <VisuallyHidden component="span"> to </VisuallyHidden>
                <IconArrowRight
                  size={14}
                  aria-hidden
                  style={{ color: look.colour, verticalAlign: 'middle', margin: '0 2px' }}
                />
                {flow.to}
              </>
            ) : null}
          </Text>
        </>
      )}
      {extra ? (
        <Text size="sm" c="dimmed">
          {extra}
        </Text>
      ) : null}
    </Card>
  );
}

/** Today's figures: produced and consumed, self-consumption and autarky, then the flows behind them. */
function EnergyBalance({ today, timeZone }: { today: SiteEnergyToday; timeZone: string }) {
  const facts: [string, string | null][] = [
    ['Produced', today.producedKwh === null ? null : kwhText(today.producedKwh)],
    ['Consumed', today.consumedKwh === null ? null : kwhText(today.consumedKwh)],
    ['Self-consumption', today.selfConsumption === null ? null : percentText(today.selfConsumption)],
    ['Autarky', today.autarky === null ? null : percentText(today.autarky)],
    ['Imported', today.importedKwh === null ? null : kwhText(today.importedKwh)],
    ['Exported', today.exportedKwh === null ? null : kwhText(today.exportedKwh)],
    ['Charged', today.chargedKwh === null ? null : kwhText(today.chargedKwh)],
    ['Discharged', today.dischargedKwh === null ? null : kwhText(today.dischargedKwh)],
  ];
  const shown = facts.filter((fact): fact is [string, string] => fact[1] !== null);
  return (
    <Stack gap="xs" component="section" aria-label="Energy today">
      <Text size="sm" fw={600}>
        Energy today, since midnight at the site ({formatSiteTime(today.from, timeZone)})
      </Text>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          No device here reports energy.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {shown.map(([label, value]) => (
            <Fact key={label} label={label}>
              {value}
            </Fact>
          ))}
        </SimpleGrid>
      )}
      <Text size="xs" c="dimmed">
        Self-consumption: the share of the production used here rather than exported. Autarky: the share of
        the consumption not imported.
      </Text>
    </Stack>
  );
}

/** The flow's four nodes, and when the figures are from (or why they are unknown). */
function PowerFlow({ now }: { now: SiteNow }) {
  const { power } = now;
  const stateOf =
    now.devices === 0
      ? 'No device here reports power.'
      : now.reporting === 0 || now.at === null
        ? 'No device here reported in the last moments: the power now is not known.'
        : `As of ${formatTime(now.at, { seconds: true, timeZone: now.timeZone })} at the site, from ${now.reporting} of ${now.devices} device${now.devices === 1 ? '' : 's'}.`;
  return (
    <Stack gap="xs" component="section" aria-label="Power now">
      <Text size="sm" fw={600}>
        Power now
      </Text>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <FlowNode of="production" watts={power.production} />
        <FlowNode of="consumption" watts={power.consumption} />
        <FlowNode of="grid" watts={power.grid} />
        <FlowNode
          of="battery"
          watts={power.battery}
          {...(power.soc === null ? {} : { extra: `${percentText(power.soc)} charged` })}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed" role="status">
        {stateOf}
      </Text>
    </Stack>
  );
}

/**
 * What a site is doing: its power flow now (solar to the home, the battery and the grid, each way
 * named) and its energy balance today, in the site's own day, read again every 10 s by the
 * site-now machine.
 */
export function SiteNowPanel({ siteId }: { siteId: number }) {
  const { monitoringApi } = useRuntime();
  const actor = useActorRef(
    siteNowMachine.provide({
      actors: { load: fromPromise(({ input }) => fetchSiteNow(monitoringApi, input.siteId)) },
    }),
    { input: { siteId } },
  );
  const now = useSelector(actor, (s) => s.context.now);
  const error = useSelector(actor, (s) => s.context.error);
  const canRetry = useSelector(actor, (s) => s.can({ type: 'now.retry' }));
  return (
    <SectionCard title="Now and today">
      <Stack gap="md">
        {error ? (
          <Alert color="red" role="alert" title="The site's figures could not be read">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {error}
                {now ? ' The figures below are from the last read; trying again.' : ''}
              </Text>
              {canRetry ? (
                <Button size="xs" variant="light" onClick={() => actor.send({ type: 'now.retry' })}>
                  Try again
                </Button>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        {now ? (
          <>
            <PowerFlow now={now} />
            <EnergyBalance today={now.today} timeZone={now.timeZone} />
          </>
        ) : error ? null : (
          <PageLoading label="Loading the power now and the energy today…" />
        )}
      </Stack>
    </SectionCard>
  );
}
