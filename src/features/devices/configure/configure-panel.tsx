import { Alert, Card, Divider, Loader, Stack, Text, Title } from '@mantine/core';
import { useActor, useActorRef } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { errorMessage } from '../../../../contracts/error-message.ts';
import { type TemplateChange, templatesMachine } from '../../../../machines/ble/templates-machine.ts';
import type { ApiClient } from '../../../api/api-client.ts';
import {
  createTemplate,
  deleteTemplate,
  fetchTemplates,
  updateTemplate,
} from '../../../api/commissioning-api.ts';
import { loadCodec } from '../../../codec/load-browser.ts';
import type { Codec } from '../../../codec/types.ts';
import { useModelName } from '../../../components/devices/model-names.ts';
import {
  type DeviceProduct,
  loadBundledProduct,
  type ProductQuery,
  readBundledFile,
} from '../../../device-config/load-product.ts';
import { StorageConfigStore } from '../../../device-sim/config-store.ts';
import { CommandsSection } from './commands-section.tsx';
import { ConfigForm } from './config-form.tsx';
import { type ConfigureSession, startConfigureSession, type VerifiedWrite } from './configure-session.ts';
import { ConnectionSection } from './connection-section.tsx';
import { LiveValues } from './live-values.tsx';
import { PasswordSection } from './password-section.tsx';
import { READABLE_ALERT } from './readable-styles.ts';
import { type TemplatesActor, TemplatesSection } from './templates-section.tsx';

/**
 * What the panel needs: the device's serial number (which also names its model by prefix), or its
 * model id when the serial is not known yet (the device's advertised name then gives it).
 * `onVerifiedWrite` receives every verified write, for the configuration history.
 */
export interface ConfigurePanelProps {
  serialNumber?: string | undefined;
  productId?: string | undefined;
  onVerifiedWrite?: ((write: VerifiedWrite) => void) | undefined;
  /** Signed in: the configuration service, for the company's settings templates. */
  templatesApi?: ApiClient | undefined;
}

/** Delay of each demo-device step, so that a person sees connecting and writing happen. */
const DEMO_LATENCY_MS = 120;

const loadPanel = fromPromise<{ codec: Codec; product: DeviceProduct }, ProductQuery>(async ({ input }) => {
  const [codec, product] = await Promise.all([loadCodec(), loadBundledProduct(input, readBundledFile)]);
  return { codec, product };
});

/** The company's templates of one product, read and changed through the configuration service. */
function useTemplates(api: ApiClient, modelId: string): TemplatesActor {
  return useActorRef(
    templatesMachine.provide({
      actors: {
        loadTemplates: fromPromise(({ input }) => fetchTemplates(api, input.modelId)),
        changeTemplates: fromPromise<unknown, { modelId: string; change: TemplateChange }>(({ input }) => {
          const { change } = input;
          if (change.kind === 'create')
            return createTemplate(api, {
              name: change.name,
              modelId: input.modelId,
              settings: change.settings,
            });
          if (change.kind === 'rename') return updateTemplate(api, change.id, { name: change.name });
          return deleteTemplate(api, change.id);
        }),
      },
    }),
    { input: { modelId } },
  );
}

function Templates({
  session,
  api,
  children,
}: {
  session: ConfigureSession;
  api: ApiClient;
  children: (onSave: (settings: Record<string, number | string>) => void) => React.ReactNode;
}) {
  const templates = useTemplates(api, session.product.modelId);
  const modelName = useModelName();
  return (
    <>
      {children((settings) => templates.send({ type: 'templates.draft', settings }))}
      <Divider />
      <TemplatesSection session={session} templates={templates} api={api} modelName={modelName} />
    </>
  );
}

function Session({
  codec,
  product,
  serialNumber,
  onVerifiedWrite,
  templatesApi,
}: {
  codec: Codec;
  product: DeviceProduct;
  serialNumber: string | undefined;
  onVerifiedWrite: ConfigurePanelProps['onVerifiedWrite'];
  templatesApi: ApiClient | undefined;
}) {
  const [session, setSession] = useState<ConfigureSession | null>(null);
  // The session's machines belong to this panel: started when it appears, stopped when it goes.
  useEffect(() => {
    const started = startConfigureSession({
      codec,
      product,
      serialNumber,
      demoStore: new StorageConfigStore(window.localStorage, 'demo-device:'),
      demoLatencyMs: DEMO_LATENCY_MS,
      onVerifiedWrite: (write) => onVerifiedWrite?.(write),
    });
    setSession(started);
    return () => started.stop();
  }, [codec, product, serialNumber, onVerifiedWrite]);
  if (!session) return null;
  return (
    <Stack gap="lg">
      <ConnectionSection session={session} />
      <PasswordSection session={session} />
      <LiveValues session={session} />
      {templatesApi ? (
        <Templates session={session} api={templatesApi}>
          {(onSave) => <ConfigForm session={session} onSaveTemplate={onSave} />}
        </Templates>
      ) : (
        <ConfigForm session={session} />
      )}
      <Divider />
      <CommandsSection session={session} />
    </Stack>
  );
}

/**
 * Configure over Bluetooth: connect (the browser's chooser, or the demo device), unlock with the
 * device password, watch live values, change the settings and write them, verified byte for byte.
 * Works from the bundled catalogue alone, signed in or not.
 * @example <ConfigurePanel serialNumber="HX5K-24-000123" />
 */
export function ConfigurePanel({
  serialNumber,
  productId,
  onVerifiedWrite,
  templatesApi,
}: ConfigurePanelProps) {
  const [state] = useActor(loadPanel, { input: { serialNumber, productId } });
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="configure-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id="configure-title">
            Configure over Bluetooth
          </Title>
          {state.output ? (
            <Text c="gray.7" size="sm">
              {state.output.product.entry.name}
              {serialNumber ? ` · ${serialNumber}` : ''}
            </Text>
          ) : null}
        </div>
        {state.status === 'active' ? (
          <Loader size="sm" role="status" aria-label="Loading the device catalogue" />
        ) : null}
        {state.status === 'error' ? (
          <Alert
            styles={READABLE_ALERT}
            color="red"
            role="alert"
            title="This device cannot be configured here"
          >
            {errorMessage(state.error)}
          </Alert>
        ) : null}
        {state.output ? (
          <Session
            codec={state.output.codec}
            product={state.output.product}
            serialNumber={serialNumber}
            onVerifiedWrite={onVerifiedWrite}
            templatesApi={templatesApi}
          />
        ) : null}
      </Stack>
    </Card>
  );
}
