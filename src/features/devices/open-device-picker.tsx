import '../../styles/mantine-all.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { fieldProps } from '../../components/field-props.ts';
import { OpenScreen } from '../../components/open-screen.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { type OpenDeviceForm, openDeviceSchema } from './open-device.ts';

const route = getRouteApi('/device-details-old/');

/**
 * `/device-details-old` without a device: pick the model and type the serial from the device's
 * label, then configure it over Bluetooth, signed in or not (for someone at a device without an
 * account). A serial must belong to the model picked; without one, any device of the model.
 */
export function OpenDevicePicker() {
  const models = route.useLoaderData();
  const navigate = route.useNavigate();
  const schema = useMemo(() => openDeviceSchema(models), [models]);
  const form = useForm<OpenDeviceForm, unknown, string>({
    resolver: zodResolver(schema),
    defaultValues: { modelId: null, serial: '' },
  });
  const open = form.handleSubmit((deviceid) =>
    navigate({ to: '/device-details-old/$deviceid', params: { deviceid } }),
  );
  return (
    <OpenScreen>
      <Stack gap="lg" maw={520}>
        <ScreenHeader
          title="Configure a device"
          description="Over Bluetooth, without signing in. The model and the serial number are on the device's label."
        />
        <form onSubmit={open} noValidate aria-label="Pick a device">
          <Stack>
            <Controller
              control={form.control}
              name="modelId"
              render={({ field }) => (
                <Select
                  label="Model"
                  placeholder="Pick the model"
                  searchable
                  data={Object.entries(models).map(([id, entry]) => ({
                    value: id,
                    label: `${entry.name} (${id})`,
                  }))}
                  value={field.value}
                  onChange={(value) => {
                    field.onChange(value);
                    form.clearErrors('serial');
                  }}
                />
              )}
            />
            <TextInput
              label="Serial number"
              description="Optional: e.g. HX5K-24-000123. Without it, you pick any device of the model nearby."
              {...fieldProps(form, 'serial', { onChange: () => form.clearErrors('serial') })}
              autoCapitalize="characters"
              spellCheck={false}
            />
            <Button type="submit">Open device</Button>
            <Text size="sm" c="dimmed">
              Signed-in users see their sites' devices under Devices.
            </Text>
          </Stack>
        </form>
      </Stack>
    </OpenScreen>
  );
}
