import { Card, Divider, Loader, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { type ComponentProps, lazy, type ReactNode, Suspense, useDeferredValue } from 'react';
import type { ApiClient } from '../../../api/api-client.ts';
import { useRuntime } from '../../../app/runtime-context.tsx';
import { fromTask, useTask } from '../../../app/use-task.ts';
import { loadCodec } from '../../../codec/load-browser.ts';
import { useModelName } from '../../../components/devices/model-names.ts';
import { LoadFailed } from '../../../components/page-state.tsx';
import {
  type DeviceProduct,
  loadBundledProduct,
  type ProductQuery,
  readBundledFile,
} from '../../../device-config/load-product.ts';
import { StorageConfigStore } from '../../../device-sim/config-store.ts';
import { CommandsSection } from './commands-section.tsx';
import { ConfigForm } from './config-form.tsx';
import { configureSessionFor } from './configure-actors.ts';
import { ConnectionSection } from './connection-section.tsx';
import { LiveValues } from './live-values.tsx';
import { PasswordSection } from './password-section.tsx';
import { ProvisionSection } from './provision-section.tsx';
import { READABLE_ALERT } from './readable-styles.ts';

/**
 * What the panel needs: the device's serial number (which also names its model by prefix), or its
 * model id when the serial is not known yet (the device's advertised name then gives it).
 */
export interface ConfigurePanelProps {
  serialNumber?: string | undefined;
  productId?: string | undefined;
  /**
   * Signed in: the device's configuration history under the panel, which verified writes add to,
   * and the company's settings templates of the model.
   */
  withHistory?: boolean | undefined;
}

// Shown only to someone signed in: their code, and the service's schemas with it, is not part of
// the open device page's.
const TemplatesSection = lazy(() =>
  import('./templates-section.tsx').then((m) => ({ default: m.TemplatesSection })),
);
const ConfigHistorySection = lazy(() =>
  import('./config-history-section.tsx').then((m) => ({ default: m.ConfigHistorySection })),
);

/** Delay of each demo-device step, so that a person sees connecting and writing happen. */
const DEMO_LATENCY_MS = 120;

interface PanelLoad extends ProductQuery {
  configApi: ApiClient | undefined;
}

/**
 * Loads the codec, the model's configuration and, for someone signed in, the history's and the
 * templates' actors, and builds the session's machine and input once.
 */
const loadPanel = fromTask(async ({ input }: { input: PanelLoad }) => {
  const { configApi } = input;
  const [codec, product, signedIn] = await Promise.all([
    loadCodec(),
    loadBundledProduct(input, readBundledFile),
    configApi ? import('./signed-in-actors.ts').then((m) => m.signedInActors(configApi)) : undefined,
  ]);
  const session = configureSessionFor({
    codec,
    product,
    serialNumber: input.serialNumber,
    signedIn,
    demoStore: new StorageConfigStore(window.localStorage, 'demo-device:'),
    demoLatencyMs: DEMO_LATENCY_MS,
  });
  return { product, session };
});

/** A loaded panel: the model, and the session's machine and input built for it. */
export type LoadedPanel = { product: DeviceProduct; session: ReturnType<typeof configureSessionFor> };

/** The panel's card: its title, the model and serial, and what is inside. */
function PanelCard({ subtitle, children }: { subtitle: string | null; children: ReactNode }) {
  return (
    // Not clipped (a Card hides its overflow): the form's Write bar sticks to the screen's bottom,
    // which it cannot inside a box that clips it.
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="configure-title"
      style={{ overflow: 'visible' }}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id="configure-title">
            Configure over Bluetooth
          </Title>
          {subtitle ? (
            <Text c="gray.7" size="sm">
              {subtitle}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

function Templates(props: Omit<ComponentProps<typeof TemplatesSection>, 'modelName'>) {
  const modelName = useModelName();
  return <TemplatesSection {...props} modelName={modelName} />;
}

/**
 * The session's actor and its views: started when the product has loaded, stopped when the panel
 * goes (the page is left). Re-renders, new props included, never restart it: it lives as long as
 * this view.
 */
export function ConfigureSessionView({
  loaded,
  subtitle,
  api,
}: {
  loaded: LoadedPanel;
  subtitle: string;
  /** Signed in: the configuration service, for writing a template to devices online. */
  api?: ApiClient | undefined;
}) {
  const session = useActorRef(loaded.session.logic, { input: loaded.session.input });
  const history = useSelector(session, (s) => s.context.history);
  const templates = useSelector(session, (s) => s.context.templates);
  const provision = useSelector(session, (s) => s.context.provision);
  return (
    <Stack gap="lg">
      <PanelCard subtitle={subtitle}>
        <Stack gap="lg">
          <ConnectionSection session={session} />
          <PasswordSection session={session} />
          <LiveValues session={session} />
          <ConfigForm session={session} />
          {templates && api ? (
            <>
              <Divider />
              <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading the templates" />}>
                <Templates session={session} templates={templates} api={api} />
              </Suspense>
            </>
          ) : null}
          {provision ? (
            <>
              <Divider />
              <ProvisionSection session={session} provision={provision} />
            </>
          ) : null}
          <Divider />
          <CommandsSection session={session} />
        </Stack>
      </PanelCard>
      {history ? (
        <Suspense fallback={null}>
          <ConfigHistorySection session={session} history={history} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/**
 * Configure over Bluetooth: connect (the browser's chooser, or the demo device), unlock with the
 * device password, watch live values, change the settings and write them, verified byte for byte.
 * Works from the bundled catalogue alone, signed in or not; signed in, the device's configuration
 * history follows the panel. Give it a `key` of the device: another device is another session.
 * @example <ConfigurePanel key={serial} serialNumber="HX5K-24-000123" withHistory />
 */
export function ConfigurePanel({ serialNumber, productId, withHistory = false }: ConfigurePanelProps) {
  const { configApi } = useRuntime();
  const state = useTask(loadPanel, {
    serialNumber,
    productId,
    configApi: withHistory ? configApi : undefined,
  });
  // The loaded panel is a large tree: rendered as a deferred update, in slices the browser can
  // answer input between (the loader stays until it is ready), not in one long task.
  const loaded = useDeferredValue(state.output);
  if (loaded) {
    const subtitle = `${loaded.product.entry.name}${serialNumber ? ` · ${serialNumber}` : ''}`;
    return (
      <ConfigureSessionView loaded={loaded} subtitle={subtitle} api={withHistory ? configApi : undefined} />
    );
  }
  return (
    <PanelCard subtitle={null}>
      {state.status === 'error' ? (
        <LoadFailed
          title="This device cannot be configured here"
          error={state.error}
          // A failed load (the catalogue or the codec not downloaded, a lost connection) is read
          // again from the start.
          onRetry={state.retry}
          styles={READABLE_ALERT}
        />
      ) : (
        <Loader size="sm" role="status" aria-label="Loading the device catalogue" />
      )}
    </PanelCard>
  );
}
