import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { type UseFormRegister, useForm, useWatch } from 'react-hook-form';
import type { TemplateSettings } from '../../../../contracts/config-templates.ts';
import { templateFromValues } from '../../../device-config/config-template.ts';
import { EXCLUDED_GROUPS } from '../../../device-config/excluded-groups.ts';
import { buildForm, type FormField, formDefaults } from '../../../device-config/form-fields.ts';
import type { ConfigValue } from '../../../device-config/process-data.ts';
import { type Choice, settingChoices } from '../../../device-config/setting-choices.ts';
import type { ConfigureSession } from './configure-session.ts';
import { PRIMARY, READABLE_ALERT } from './readable-styles.ts';

type Values = Record<string, ConfigValue>;

const GROUP_STYLE = {
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 'var(--mantine-radius-md)',
  padding: 'var(--mantine-spacing-md)',
  margin: 0,
  minWidth: 0,
} as const;

const same = (a: unknown, b: unknown) =>
  (typeof a === 'number' && Number.isNaN(a) ? '' : String(a ?? '')) === String(b ?? '');

function FieldControl({
  field,
  choices,
  register,
  changed,
  error,
}: {
  field: FormField;
  choices: Choice[] | undefined;
  register: UseFormRegister<Values>;
  changed: boolean;
  error: string | undefined;
}) {
  const label = (
    <Group gap={6} component="span" wrap="nowrap">
      <span>{field.label}</span>
      {changed ? (
        // Never squeezed: beside a long label on a phone it would be cut to "CH…".
        <Badge size="xs" color="orange.9" variant="filled" style={{ flexShrink: 0 }}>
          Changed
        </Badge>
      ) : null}
    </Group>
  );
  const common = {
    label,
    description: field.unit ? `In ${field.unit}` : undefined,
    error,
    'data-changed': changed || undefined,
    styles: {
      description: { color: 'var(--mantine-color-gray-7)' },
      ...(changed ? { input: { borderColor: 'var(--mantine-color-orange-7)', borderWidth: 2 } } : {}),
    },
  };
  if (choices && field.kind === 'number') {
    return (
      <NativeSelect
        {...common}
        data={choices}
        {...register(field.name, {
          disabled: field.disabled,
          setValueAs: (v: string) => (v === '' ? '' : Number(v)),
          ...(field.rules.required ? { required: field.rules.required } : {}),
        })}
      />
    );
  }
  if (field.kind === 'password')
    return <PasswordInput {...common} autoComplete="new-password" {...register(field.name, field.rules)} />;
  const type =
    field.kind === 'number' ? 'number' : field.kind === 'datetime-local' ? 'datetime-local' : 'text';
  return (
    <TextInput
      {...common}
      type={type}
      step={type === 'number' ? 'any' : undefined}
      {...register(field.name, field.rules)}
    />
  );
}

/**
 * The configuration form generated from the product's formData: rules from each descriptor,
 * inactive fields disabled, excluded groups without controls, enumerated values as selects, changed
 * fields highlighted; Write and Revert. Read-only until the device is unlocked.
 */
export function ConfigForm({
  session,
  onSaveTemplate,
}: {
  session: ConfigureSession;
  /** Given, a "Save as template" button hands over the form's settings as they are now. */
  onSaveTemplate?: ((settings: TemplateSettings) => void) | undefined;
}) {
  const { connection, password, write, product } = session;
  const config = useSelector(connection, (s) => s.context.config);
  const link = useSelector(connection, (s) => (s.matches('ready') ? s.context.link : null));
  const unlocked = useSelector(password, (s) => s.matches('unlocked') || s.matches('open'));
  const writing = useSelector(write, (s) =>
    (['validating', 'writing', 'readingBack', 'verifying'] as const).some((v) => s.matches(v)),
  );
  const done = useSelector(write, (s) => s.matches('done'));
  const failure = useSelector(write, (s) =>
    s.matches('failed') || s.matches('invalid') ? s.context.failure : null,
  );
  const fieldErrors = useSelector(write, (s) => s.context.fieldErrors);
  const choices = useMemo(() => settingChoices(product.config), [product]);
  const groups = useMemo(
    () => (config ? buildForm(product.config, config.decoded, { excludedGroups: EXCLUDED_GROUPS }) : []),
    [config, product],
  );
  const form = useForm<Values>({ mode: 'onChange' });
  const values = useWatch({ control: form.control });
  const shownFrame = useRef<Uint8Array | null>(null);

  // Follow the device while the person has not edited anything; after a verified write, start
  // again from what the device now holds. Edits are never overwritten by a periodic read.
  useEffect(() => {
    if (!config || config.frame === shownFrame.current) return;
    if (shownFrame.current !== null && form.formState.isDirty && !done) return;
    shownFrame.current = config.frame;
    form.reset(formDefaults(groups));
  }, [config, groups, form, done]);

  useEffect(() => {
    for (const e of fieldErrors) form.setError(e.field, { type: 'device', message: e.message });
  }, [fieldErrors, form]);

  if (!config) return null;
  const excluded = product.config.formData.filter((g) => EXCLUDED_GROUPS.includes(g.title));
  const changedCount = groups
    .flatMap((g) => g.fields)
    .filter((f) => !f.disabled && f.kind !== 'datetime-local' && !same(values[f.name], f.deviceValue)).length;
  const submit = form.handleSubmit((v) => {
    if (!link) return;
    write.send({ type: 'config.write', link, groups, values: v, base: config.frame });
  });
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
        <fieldset
          disabled={!unlocked || !link || writing}
          style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
        >
          <Stack gap="lg">
            {groups.map((group) => (
              <fieldset key={group.title} style={GROUP_STYLE}>
                <legend>{group.title}</legend>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {group.fields.map((field) => (
                    <FieldControl
                      key={field.name}
                      field={field}
                      choices={choices[field.name]}
                      register={form.register}
                      changed={
                        !field.disabled &&
                        field.kind !== 'datetime-local' &&
                        !same(values[field.name], field.deviceValue)
                      }
                      error={form.formState.errors[field.name]?.message}
                    />
                  ))}
                </SimpleGrid>
              </fieldset>
            ))}
            {excluded.map((group) => (
              <fieldset key={group.title} style={GROUP_STYLE}>
                <legend>{group.title}</legend>
                <Text size="sm" c="gray.7">
                  Set at the factory: not changed in the field.
                </Text>
              </fieldset>
            ))}
          </Stack>
        </fieldset>
        {failure ? (
          <Alert styles={READABLE_ALERT} color="red" role="alert" title="The configuration was not written">
            {failure.message}
          </Alert>
        ) : null}
        {done ? (
          <Alert styles={READABLE_ALERT} color="teal" role="status" title="Written and verified">
            The device holds exactly the new configuration.
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button type="submit" color={PRIMARY} loading={writing} disabled={!unlocked || !link}>
            Write
          </Button>
          <Button
            variant="default"
            disabled={writing || !form.formState.isDirty}
            onClick={() => {
              form.reset(formDefaults(groups));
              write.send({ type: 'config.dismiss' });
            }}
          >
            Revert
          </Button>
          {onSaveTemplate ? (
            <Button
              variant="default"
              disabled={writing}
              onClick={() => {
                const settings = templateFromValues(groups, form.getValues());
                if (Object.keys(settings).length > 0) onSaveTemplate(settings);
              }}
            >
              Save as template
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
