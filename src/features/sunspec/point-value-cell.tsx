import { Badge, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { editKey, type sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import type { DecodedModel, DecodedPoint } from '../../sunspec/decode-device.ts';
import { isWritable } from '../../sunspec/edit-point.ts';
import { isBitfield, isEnum } from '../../sunspec/point-types.ts';
import { displayValue, editText, flagNames, NOT_IMPLEMENTED } from './point-format.ts';

type Actor = ActorRefFrom<typeof sunspecConfigMachine>;

function Unscaled({ point }: { point: DecodedPoint }) {
  return (
    <Badge
      size="xs"
      color="orange"
      variant="light"
      title={`Its scale factor ${String(point.def.sf)} is not implemented: the raw value is shown`}
    >
      unscaled
    </Badge>
  );
}

function ReadOnlyValue({ point }: { point: DecodedPoint }) {
  if (point.value === null) {
    return (
      <Text size="sm" c="dimmed" aria-label={`${point.def.label ?? point.def.name}: not implemented`}>
        {NOT_IMPLEMENTED}
      </Text>
    );
  }
  if (isBitfield(point.def.type)) {
    const flags = flagNames(point);
    return flags.length === 0 ? (
      <Text size="sm" c="dimmed">
        no flags set
      </Text>
    ) : (
      <Group gap={4}>
        {flags.map((flag) => (
          <Badge key={flag} size="sm" variant="outline" tt="none">
            {flag}
          </Badge>
        ))}
      </Group>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" ff={point.def.type === 'string' ? undefined : 'monospace'}>
        {displayValue(point)}
      </Text>
      {point.unscaled ? <Unscaled point={point} /> : null}
    </Group>
  );
}

/** A point's value: read-only text, or an input for a read-write setting, with its error. */
export function PointValueCell({
  actor,
  model,
  point,
}: {
  actor: Actor;
  model: DecodedModel;
  point: DecodedPoint;
}) {
  const key = editKey(model.index, point.path);
  const edit = useSelector(actor, (s) => s.context.edits[key]);
  const label = `${point.def.label ?? point.def.name} (${point.path})`;
  if (!isWritable(point)) return <ReadOnlyValue point={point} />;
  if (point.value === null) {
    return (
      <TextInput
        size="xs"
        aria-label={label}
        value={NOT_IMPLEMENTED}
        disabled
        description="not implemented"
      />
    );
  }
  const send = (text: string) =>
    actor.send({ type: 'sunspec.edit', model: model.index, path: point.path, text });
  const changed = edit !== undefined && edit.error === null;
  const hint = changed ? `was ${displayValue(point)}` : undefined;
  if (isEnum(point.def.type) && point.def.symbols && point.def.symbols.length > 0) {
    const options = point.def.symbols.map((s) => ({
      value: String(s.value),
      label: `${s.name} (${s.value})`,
    }));
    if (!options.some((o) => o.value === String(point.value))) {
      options.unshift({ value: String(point.value), label: `${String(point.value)} (not a listed symbol)` });
    }
    return (
      <NativeSelect
        size="xs"
        aria-label={label}
        data={options}
        value={edit?.text ?? String(point.value)}
        onChange={(e) => send(e.currentTarget.value)}
        error={edit?.error}
        description={hint}
      />
    );
  }
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <TextInput
        size="xs"
        aria-label={label}
        value={edit?.text ?? editText(point.value)}
        onChange={(e) => send(e.currentTarget.value)}
        error={edit?.error}
        description={hint}
        inputMode={point.def.type === 'string' ? 'text' : 'decimal'}
        style={{ flex: 1 }}
      />
      {point.unscaled ? <Unscaled point={point} /> : null}
    </Group>
  );
}
