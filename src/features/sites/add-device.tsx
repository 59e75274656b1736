import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconBluetooth, IconCamera } from '@tabler/icons-react';
import { useActor, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { catalogueModels, e1CatalogueModels } from '../../../machines/catalogue/catalogue-selectors.ts';
import {
  addDeviceMachine,
  exampleSerial,
  type ModelChoice,
} from '../../../machines/commissioning/add-device-machine.ts';
import { claimDevice } from '../../api/commissioning-api.ts';
import { usePageRefresh } from '../../app/page-refresh.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { targetOf } from '../../ble/device-commands.ts';
import { WebBluetoothTransport } from '../../ble/web-bluetooth-transport.ts';
import { browserBluetooth } from '../../ble/web-bluetooth-types.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { scanCode } from './code-scanner.ts';

/** Every model of both devices lists, as the dialog offers them. */
function useModels(): ModelChoice[] {
  const { catalogue } = useRuntime();
  const models = useSelector(catalogue, catalogueModels);
  const e1Models = useSelector(catalogue, e1CatalogueModels);
  return useMemo(
    () =>
      Object.entries({ ...models, ...e1Models }).map(([modelId, entry]) => ({
        modelId,
        name: entry.name,
        prefix: entry.serialPrefix,
        target: targetOf(entry),
      })),
    [models, e1Models],
  );
}

/** The camera's picture while a code is looked for. */
function Preview({ stream }: { stream: MediaStream | null }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);
  return (
    <video
      ref={video}
      autoPlay
      muted
      playsInline
      aria-label="Camera picture: hold the serial's QR code or barcode in view"
      style={{ width: '100%', maxHeight: 260, background: '#111', borderRadius: 8 }}
    />
  );
}

/** The device, claimed: what happens next. */
function Claimed({ serial, onDone }: { serial: string; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="teal" title={`${serial} is on this site`} role="status">
        It is claimed for this site with its label's code. It comes online by itself once it has its network
        settings; its page shows its first reading, or what to check while it stays silent.
      </Alert>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/**
 * Add a device to a site: scan its label's QR code with the camera (serial and claim code), or
 * type both from the label (the serial may also be read from the device over Bluetooth); name it
 * and claim it for the site. No secret is shown: the device is given its own over Bluetooth.
 */
export function AddDevice({ siteId, onClose }: { siteId: number; onClose: () => void }) {
  const { configApi } = useRuntime();
  const refresh = usePageRefresh();
  const choices = useModels();
  const machine = useMemo(
    () =>
      addDeviceMachine.provide({
        actors: {
          scanCode,
          refresh,
          claim: fromPromise(({ input }) => claimDevice(configApi, input.siteId, input.body)),
        },
      }),
    [configApi, refresh],
  );
  const [state, send] = useActor(machine, {
    input: { siteId, models: choices, bluetooth: new WebBluetoothTransport(browserBluetooth()) },
  });
  const { serial, claimCode, modelId, name, error, fieldErrors, installed, stream } = state.context;
  const model = choices.find((choice) => choice.modelId === modelId);
  if (installed) return <Claimed serial={installed.serial} onDone={onClose} />;
  const scanning = state.matches('scanning');
  const reading = state.matches('reading');
  const saving = state.matches('saving');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        send({ type: 'add.save' });
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Scan the QR code on the device's label, or type its serial number and claim code from the label.
        </Text>
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconCamera size={16} aria-hidden />}
            onClick={() => send({ type: scanning ? 'add.cancel' : 'add.scan' })}
            disabled={reading || saving}
          >
            {scanning ? 'Stop scanning' : 'Scan code'}
          </Button>
          <Button
            variant="light"
            leftSection={<IconBluetooth size={16} aria-hidden />}
            onClick={() => send({ type: 'add.bluetooth' })}
            loading={reading}
            disabled={scanning || saving}
          >
            Read over Bluetooth
          </Button>
        </Group>
        {scanning ? (
          <Stack gap={4}>
            <Preview stream={stream} />
            <Text size="sm" role="status">
              Looking for a code…
            </Text>
          </Stack>
        ) : null}
        <NativeSelect
          label="Model"
          description="Follows the serial number's prefix"
          data={choices.map((model) => ({ value: model.modelId, label: `${model.name} (${model.modelId})` }))}
          value={modelId}
          onChange={(event) => send({ type: 'add.edit', modelId: event.currentTarget.value })}
        />
        <TextInput
          label="Serial number"
          description={
            model ? (
              <>
                {model.prefix}, a two-digit year and six digits, such as{' '}
                <span style={{ whiteSpace: 'nowrap' }}>{exampleSerial(model)}</span>
              </>
            ) : undefined
          }
          placeholder={model ? exampleSerial(model) : 'HX5K-24-000123'}
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          error={fieldErrors.serial}
          value={serial}
          onChange={(event) => send({ type: 'add.edit', serial: event.currentTarget.value })}
        />
        <TextInput
          label="Claim code"
          description="16 letters and digits on the label, beside the serial"
          placeholder="K7M2-Q9XD-4TRW-8HNB"
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          error={fieldErrors.claimCode}
          value={claimCode}
          onChange={(event) => send({ type: 'add.edit', claimCode: event.currentTarget.value })}
        />
        <TextInput
          label="Name"
          description="What the site's lists and the report call it; the model's name when left empty"
          value={name}
          maxLength={80}
          onChange={(event) => send({ type: 'add.edit', name: event.currentTarget.value })}
        />
        <FormFooter
          error={error?.message}
          errorTitle={error?.title ?? ''}
          submitLabel="Add device"
          pending={saving}
          submitDisabled={scanning || reading}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
