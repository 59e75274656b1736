import {
  Anchor,
  Button,
  CopyButton,
  Grid,
  Group,
  NativeSelect,
  NavLink,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { CSSProperties } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import type { DecodedModel } from '../../sunspec/decode-device.ts';
import { formatDump, locateMarker } from '../../sunspec/register-dump.ts';
import { PendingChanges } from './pending-changes.tsx';
import { matchesQuery } from './point-format.ts';
import { type PointRow, PointsTable } from './points-table.tsx';
import { RawModel } from './raw-model.tsx';

type Actor = ActorRefFrom<typeof sunspecConfigMachine>;

const modelName = (m: DecodedModel) =>
  m.definition ? (m.definition.group.label ?? m.definition.group.name) : 'Unknown model';

/** A loaded device: its models on the left, the chosen model's points (or a search) on the right. */
export function DeviceView({ actor }: { actor: Actor }) {
  const loaded = useSelector(actor, (s) => s.context.loaded);
  const selected = useSelector(actor, (s) => s.context.selected);
  const query = useSelector(actor, (s) => s.context.query);
  const pending = useSelector(actor, (s) => Object.keys(s.context.edits).length);
  if (!loaded) return null;
  const { models, marker } = loaded.device;
  const model = models[selected] ?? models[0];
  const searching = query.trim() !== '';
  const rows: PointRow[] = searching
    ? models.flatMap((m) =>
        m.points
          .filter((p) => p.def.type !== 'pad' && matchesQuery(p, query))
          .map((point) => ({ model: m, point })),
      )
    : (model?.points ?? [])
        .filter((p) => p.def.type !== 'pad')
        .map((point) => ({ model: model as DecodedModel, point }));
  const select = (index: number) => actor.send({ type: 'sunspec.select', model: index });
  return (
    <Stack gap="md">
      <Group gap="sm" justify="space-between">
        <Text size="sm">
          <strong>{loaded.source}</strong>: SunS marker at register {marker}, {models.length} models
          {loaded.userModels.length > 0 ? `, ${loaded.userModels.length} definition(s) added` : ''}.
        </Text>
        <CopyButton value={formatDump(locateMarker(loaded.dump).start, loaded.dump.registers)}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? 'Dump copied' : 'Copy register dump'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <NativeSelect
            hiddenFrom="md"
            label="Model"
            value={String(model?.index ?? 0)}
            onChange={(e) => select(Number(e.currentTarget.value))}
            data={models.map((m) => ({ value: String(m.index), label: `${m.id} · ${modelName(m)}` }))}
          />
          <nav aria-label="Models">
            <Stack gap={2} visibleFrom="md">
              {models.map((m) => (
                <NavLink
                  key={m.index}
                  component="button"
                  variant="filled"
                  color="teal.9"
                  // Mantine darkens on hover by one shade less, which drops white text under 4.5:1.
                  style={{ '--nl-hover': 'var(--mantine-color-teal-9)' } as CSSProperties}
                  styles={{ description: { opacity: 1 } }}
                  active={!searching && m.index === model?.index}
                  aria-current={!searching && m.index === model?.index ? 'true' : undefined}
                  label={`${m.id} · ${modelName(m)}`}
                  description={`Register ${m.address}, length ${m.length}`}
                  onClick={() => select(m.index)}
                />
              ))}
            </Stack>
          </nav>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="sm">
            <TextInput
              type="search"
              label="Search points"
              description="By name, label, description or units, across every model"
              value={query}
              onChange={(e) => actor.send({ type: 'sunspec.search', query: e.currentTarget.value })}
            />
            {pending > 0 ? (
              <Text size="sm">
                {pending} pending change{pending === 1 ? '' : 's'}:{' '}
                <Anchor href="#pending-title">review and copy the write requests</Anchor>
              </Text>
            ) : null}
            {!searching && model ? (
              <div>
                <Text fw={600} component="h2" size="lg" m={0}>
                  Model {model.id}: {modelName(model)}
                </Text>
                {model.definition?.group.desc ? (
                  <Text size="sm" c="dimmed">
                    {model.definition.group.desc}
                  </Text>
                ) : null}
                {model.warning ? (
                  <Text size="sm" c="orange.8">
                    {model.warning}
                  </Text>
                ) : null}
              </div>
            ) : (
              <Text component="h2" fw={600} size="lg" m={0}>
                {rows.length} point{rows.length === 1 ? '' : 's'} match “{query.trim()}”
              </Text>
            )}
            {!searching && model && !model.definition ? (
              <RawModel model={model} />
            ) : rows.length > 0 ? (
              <PointsTable actor={actor} rows={rows} showModel={searching} />
            ) : searching ? (
              <Text c="dimmed">No point matches. Try a name such as WMax, or a unit such as Hz.</Text>
            ) : null}
          </Stack>
        </Grid.Col>
      </Grid>
      <PendingChanges actor={actor} />
    </Stack>
  );
}
