import {
  Alert,
  Badge,
  Button,
  Group,
  Input,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { type FormEvent, type ReactNode, useId } from 'react';
import { flushSync } from 'react-dom';
import {
  type ConfigureSessionActor,
  formEditable,
} from '../../../../machines/ble/configure-session-machine.ts';
import { valueText } from '../../../device-config/config-changes.ts';
import { templateFromValues } from '../../../device-config/config-template.ts';
import { EXCLUDED_GROUPS } from '../../../device-config/excluded-groups.ts';
import { type FormField, readOnlyGroups } from '../../../device-config/form-fields.ts';
import { changedFields, isChanged } from '../../../device-config/form-state.ts';
import type { ConfigValue } from '../../../device-config/process-data.ts';
import { PRIMARY, READABLE_ALERT } from './readable-styles.ts';

const GROUP_STYLE = {
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 'var(--mantine-radius-md)',
  padding: 'var(--mantine-spacing-md)',
  margin: 0,
  minWidth: 0,
} as const;

const DIMMED = { color: 'var(--mantine-color-gray-7)' } as const;

const HOURS = Array.from({ length: 12 }, (_, i) => String(i + 1));
const MINUTES = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

interface ControlProps {
  field: FormField;
  value: ConfigValue | undefined;
  changed: boolean;
  error: string | undefined;
  onChange: (value: ConfigValue) => void;
}

function FieldLabel({ field, changed }: { field: FormField; changed: boolean }) {
  return (
    <Group gap={6} component="span" wrap="nowrap" style={{ display: 'inline-flex', verticalAlign: 'middle' }}>
      <span>{field.label}</span>
      {changed ? (
        // Never squeezed: beside a long label on a phone it would be cut to "CH…". A dark orange:
        // Mantine's orange.9 gives white text 4.3:1, short of 4.5:1.
        <Badge size="xs" color="#a34700" variant="filled" style={{ flexShrink: 0 }}>
          Changed
        </Badge>
      ) : null}
    </Group>
  );
}

/** What a field accepts and what the catalogue says of it, under the field: before any write. */
function description(field: FormField, value?: ConfigValue): ReactNode {
  const words = field.display?.type === 'duration' && value !== '' ? valueText(field, value) : '';
  const lines = [field.limits && words ? `${field.limits} · ${words}` : field.limits, field.note];
  if (field.kind === 'datetime-local')
    lines.push(`The device's clock reads ${valueText(field, field.deviceValue)}.`);
  const shown = lines.filter((line): line is string => Boolean(line));
  if (shown.length === 0) return undefined;
  return shown.map((line) => (
    <span key={line} style={{ display: 'block' }}>
      {line}
    </span>
  ));
}

/**
 * A time of day in 12-hour form (specification §9): hour, minute and am/pm, kept as the device
 * keeps it (seconds or minutes after midnight).
 */
function TimeOfDay({ field, value, changed, error, onChange }: ControlProps) {
  const id = useId();
  const perMinute = field.display?.type === 'time-of-day' && field.display.unit === 'seconds' ? 60 : 1;
  const minutes = Math.floor((Number(value) || 0) / perMinute) % 1440;
  const hours24 = Math.floor(minutes / 60);
  const hour = hours24 % 12 === 0 ? 12 : hours24 % 12;
  const minute = minutes % 60;
  const pm = hours24 >= 12;
  const set = (next: { hour?: number; minute?: number; pm?: boolean }) => {
    const h = ((next.hour ?? hour) % 12) + ((next.pm ?? pm) ? 12 : 0);
    onChange((h * 60 + (next.minute ?? minute)) * perMinute);
  };
  const about = description(field);
  const common = { disabled: field.disabled, 'aria-invalid': error ? true : undefined } as const;
  return (
    <fieldset
      aria-describedby={about ? `${id}-about` : undefined}
      data-changed={changed || undefined}
      style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
    >
      <legend style={{ padding: 0 }}>
        <Input.Label labelElement="div" required={Boolean(field.rules.required)}>
          <FieldLabel field={field} changed={changed} />
        </Input.Label>
      </legend>
      {about ? (
        <Text id={`${id}-about`} size="xs" style={DIMMED} component="div">
          {about}
        </Text>
      ) : null}
      <Group gap={6} mt={4} wrap="nowrap">
        <NativeSelect
          aria-label="Hour"
          data={HOURS}
          value={String(hour)}
          onChange={(e) => set({ hour: Number(e.currentTarget.value) })}
          {...common}
        />
        <Text aria-hidden>:</Text>
        <NativeSelect
          aria-label="Minute"
          data={MINUTES}
          value={String(minute).padStart(2, '0')}
          onChange={(e) => set({ minute: Number(e.currentTarget.value) })}
          {...common}
        />
        <NativeSelect
          aria-label="am or pm"
          data={['am', 'pm']}
          value={pm ? 'pm' : 'am'}
          onChange={(e) => set({ pm: e.currentTarget.value === 'pm' })}
          {...common}
        />
      </Group>
      {error ? (
        <Text size="xs" c="red.8" mt={4}>
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}

function FieldControl(props: ControlProps) {
  const { field, value, changed, error, onChange } = props;
  if (field.display?.type === 'time-of-day') return <TimeOfDay {...props} />;
  const common = {
    label: <FieldLabel field={field} changed={changed} />,
    description: description(field, value),
    error,
    disabled: field.disabled,
    required: Boolean(field.rules.required),
    'data-changed': changed || undefined,
    styles: {
      description: DIMMED,
      ...(changed ? { input: { borderColor: 'var(--mantine-color-orange-7)', borderWidth: 2 } } : {}),
    },
  };
  const text = value === undefined || (typeof value === 'number' && Number.isNaN(value)) ? '' : String(value);
  if (field.display?.type === 'choice') {
    const known = field.display.options.some((o) => o.value === text);
    const options = known
      ? field.display.options
      : [{ value: text, label: `Unknown (${text})` }, ...field.display.options];
    return (
      <NativeSelect
        {...common}
        data={options}
        value={text}
        onChange={(e) => onChange(Number(e.currentTarget.value))}
      />
    );
  }
  if (field.kind === 'password')
    return (
      <PasswordInput
        {...common}
        autoComplete="new-password"
        value={text}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    );
  const type =
    field.kind === 'number' ? 'number' : field.kind === 'datetime-local' ? 'datetime-local' : 'text';
  return (
    <TextInput
      {...common}
      type={type}
      step={type === 'number' ? 'any' : undefined}
      rightSection={field.unit && type === 'number' ? <Text size="xs">{field.unit}</Text> : undefined}
      rightSectionWidth={field.unit ? Math.max(36, field.unit.length * 9 + 16) : undefined}
      value={text}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** The groups shown but never written (factory calibration): why, and what the device holds. */
function ReadOnlyGroups({ session }: { session: ConfigureSessionActor }) {
  const product = useSelector(session, (s) => s.context.product);
  const device = useSelector(session, (s) => s.context.device);
  if (!device) return null;
  return readOnlyGroups(product.config, device.decoded, EXCLUDED_GROUPS).map((group) => (
    <fieldset key={group.title} style={GROUP_STYLE}>
      <legend>{group.title}</legend>
      <Stack gap="xs">
        <Text size="sm" style={DIMMED}>
          {group.note ?? 'Set at the factory: not changed in the field.'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" style={{ margin: 0 }}>
          {group.facts.map((fact) => (
            <div key={fact.name}>
              <Text component="dt" size="sm" fw={500}>
                {fact.label}
              </Text>
              <Text component="dd" size="sm" m={0}>
                {fact.value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Stack>
    </fieldset>
  ));
}

/**
 * The configuration form generated from the product's formData, as the session holds it: each
 * field asked for as the catalogue says (a select of labels, a 12-hour time, a number with its
 * limits), inactive fields greyed with the reason, factory groups shown read-only, changed fields
 * marked; Write and Revert. Read-only until the device is unlocked. Every value is the session's:
 * this view only shows them and sends what the person does.
 */
export function ConfigForm({ session }: { session: ConfigureSessionActor }) {
  const groups = useSelector(session, (s) => s.context.groups);
  const values = useSelector(session, (s) => s.context.values);
  const errors = useSelector(session, (s) => s.context.errors);
  // The buttons ask the machine: the guard that refuses the event is the rule that disables them.
  const canWrite = useSelector(session, (s) => s.can({ type: 'form.write' }));
  const canRevert = useSelector(session, (s) => s.can({ type: 'form.revert' }));
  const writing = useSelector(session, (s) => s.matches({ form: 'writing' }));
  const editable = useSelector(session, formEditable);
  const writeRef = useSelector(session, (s) => s.context.write);
  const templates = useSelector(session, (s) => s.context.templates);
  const done = useSelector(writeRef, (s) => s.matches('done'));
  const failure = useSelector(writeRef, (s) =>
    s.matches('failed') || s.matches('invalid') ? s.context.failure : null,
  );
  if (groups.length === 0) return null;
  const changedCount = changedFields(groups, values).length;
  const problems = groups.flatMap((g) => g.fields).filter((field) => errors[field.name]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // The refused write's problems are drawn at once, so the first field that needs a fix takes focus.
    flushSync(() => session.send({ type: 'form.write' }));
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  };
  return (
    <form onSubmit={submit} aria-labelledby="settings-title" noValidate>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={3} size="h4" id="settings-title">
            Settings
          </Title>
          <Text size="sm" c="gray.7" aria-live="polite">
            {changedCount === 0 ? 'No changes' : `${changedCount} changed`}
          </Text>
        </Group>
        <fieldset disabled={!editable} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="lg">
            {groups.map((group) => (
              <fieldset key={group.title} style={GROUP_STYLE}>
                <legend>{group.title}</legend>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {group.fields.map((field) => (
                    <FieldControl
                      key={field.name}
                      field={field}
                      value={values[field.name]}
                      changed={isChanged(field, values[field.name])}
                      error={errors[field.name]}
                      onChange={(value) => session.send({ type: 'form.change', name: field.name, value })}
                    />
                  ))}
                </SimpleGrid>
              </fieldset>
            ))}
            <ReadOnlyGroups session={session} />
          </Stack>
        </fieldset>
        {/* Write, its result and what stands in its way stay in view at the screen's bottom. */}
        <div className="fm-write-bar">
          <Stack gap="sm">
            {failure ? (
              <Alert
                styles={READABLE_ALERT}
                color="red"
                role="alert"
                title="The configuration was not written"
                withCloseButton
                closeButtonLabel="Dismiss"
                onClose={() => session.send({ type: 'form.dismiss' })}
              >
                {failure.message}
              </Alert>
            ) : null}
            {done ? (
              <Alert
                styles={READABLE_ALERT}
                color="teal"
                role="status"
                title="Written and verified"
                withCloseButton
                closeButtonLabel="Dismiss"
                onClose={() => session.send({ type: 'form.dismiss' })}
              >
                The device holds exactly the new configuration.
              </Alert>
            ) : null}
            <Group gap="sm">
              <Button
                type="submit"
                color={PRIMARY}
                loading={writing}
                disabled={!canWrite}
                aria-describedby={problems.length > 0 ? 'write-problems' : undefined}
              >
                Write
              </Button>
              <Button
                variant="default"
                disabled={!canRevert}
                onClick={() => session.send({ type: 'form.revert' })}
              >
                Revert
              </Button>
              {problems.length > 0 ? (
                <Text id="write-problems" size="sm" c="red.8" role="alert">
                  {problems.length === 1
                    ? `${problems[0]?.label} needs a fix before Write.`
                    : `${problems.length} fields need a fix before Write: ${problems.map((f) => f.label).join(', ')}.`}
                </Text>
              ) : null}
              {templates ? (
                <Button
                  variant="default"
                  disabled={writing}
                  onClick={() => {
                    const settings = templateFromValues(groups, values);
                    if (Object.keys(settings).length > 0)
                      templates.send({ type: 'templates.draft', settings });
                  }}
                >
                  Save as template
                </Button>
              ) : null}
            </Group>
          </Stack>
        </div>
      </Stack>
    </form>
  );
}
