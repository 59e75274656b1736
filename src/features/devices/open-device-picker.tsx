import '../../styles/mantine-all.css';
import { Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import { OpenScreen } from '../../components/open-screen.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { modelOfSerial } from './open-device.ts';

const route = getRouteApi('/device-details-old/');

/**
 * `/device-details-old` without a device: pick the model and type the serial from the device's
 * label, then configure it over Bluetooth, signed in or not (for someone at a device without an
 * account). A serial must belong to the model picked; without one, any device of the model.
 */
export function OpenDevicePicker() {
  const models = route.useLoaderData();
  const navigate = route.useNavigate();
  const [modelId, setModelId] = useState<string | null>(null);
  const [serial, setSerial] = useState('');
  const [error, setError] = useState<string | null>(null);
  const open = (event: FormEvent) => {
    event.preventDefault();
    const typed = serial.trim().toUpperCase();
    if (typed) {
      if (!serialNumberPattern.test(typed)) {
        setError('A serial number looks like HX5K-24-000123: the model prefix, the year, six digits.');
        return;
      }
      const model = modelOfSerial(models, typed);
      if (!model)
        return setError(`No model of the catalogue has serial numbers starting ${typed.split('-')[0]}.`);
      if (modelId && model.id !== modelId) {
        return setError(
          `${typed} is a serial number of ${model.entry.name}, not of ${models[modelId]?.name}.`,
        );
      }
      void navigate({ to: '/device-details-old/$deviceid', params: { deviceid: typed } });
      return;
    }
    if (!modelId) return setError('Pick the model, or type the serial number.');
    void navigate({ to: '/device-details-old/$deviceid', params: { deviceid: modelId } });
  };
  return (
    <OpenScreen>
      <Stack gap="lg" maw={520}>
        <ScreenHeader
          title="Configure a device"
          description="Over Bluetooth, without signing in. The model and the serial number are on the device's label."
        />
        <form onSubmit={open} noValidate aria-label="Pick a device">
          <Stack>
            <Select
              label="Model"
              placeholder="Pick the model"
              searchable
              data={Object.entries(models).map(([id, entry]) => ({
                value: id,
                label: `${entry.name} (${id})`,
              }))}
              value={modelId}
              onChange={(value) => {
                setModelId(value);
                setError(null);
              }}
            />
            <TextInput
              label="Serial number"
              description="Optional: e.g. HX5K-24-000123. Without it, you pick any device of the model nearby."
              value={serial}
              onChange={(event) => {
                setSerial(event.currentTarget.value);
                setError(null);
              }}
              error={error}
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
