import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import { useHydrated } from '../../components/use-hydrated.ts';
import { PasteDump } from './paste-dump.tsx';

type Actor = ActorRefFrom<typeof sunspecConfigMachine>;

/**
 * Where a device comes from: the demo device, a dump file, and extra model definitions. Its
 * buttons wait for the app on the page the build prerendered (a press before would do nothing);
 * then a device may be asked for at once, the configurator reads it when its models are ready.
 */
export function SourceBar({ actor }: { actor: Actor }) {
  const hydrated = useHydrated();
  const canAsk = useSelector(actor, (s) => s.can({ type: 'sunspec.loadDemo' }));
  const canLoad = hydrated && canAsk;
  const loaded = useSelector(actor, (s) => s.context.loaded);
  // Showing or hiding the paste box is the view's own business, not the configurator's state.
  const [pasting, setPasting] = useState(false);
  const whyNoDefinitions = useId();
  const definitionsOff = !canLoad || !loaded;
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Button onClick={() => actor.send({ type: 'sunspec.loadDemo' })} disabled={!canLoad}>
          Load demo device
        </Button>
        <FileButton
          accept=".hex,.txt,text/plain"
          onChange={(file) => {
            if (file) actor.send({ type: 'sunspec.loadDump', file });
          }}
        >
          {(props) => (
            <Button variant="default" disabled={!canLoad} {...props}>
              Open register dump…
            </Button>
          )}
        </FileButton>
        <FileButton
          accept=".json,application/json"
          multiple
          onChange={(files) => {
            if (files.length > 0) actor.send({ type: 'sunspec.addDefinitions', files });
          }}
        >
          {(props) => (
            <Button
              variant="default"
              disabled={definitionsOff}
              aria-describedby={definitionsOff ? whyNoDefinitions : undefined}
              {...props}
            >
              Add model definitions…
            </Button>
          )}
        </FileButton>
        <Button
          variant="default"
          aria-expanded={pasting}
          disabled={!hydrated}
          onClick={() => setPasting((open) => !open)}
        >
          {pasting ? 'Hide paste box' : 'Paste register dump…'}
        </Button>
      </Group>
      {definitionsOff ? (
        <Text size="sm" c="dimmed" id={whyNoDefinitions}>
          {/* The same words before and after hydration, so that nothing moves when the app takes over. */}
          {canAsk
            ? 'Add model definitions once a device is loaded: they describe models it reports that this page does not know yet.'
            : 'Add model definitions once the device has been read.'}
        </Text>
      ) : null}
      {pasting ? (
        <PasteDump disabled={!canLoad} onRead={(file) => actor.send({ type: 'sunspec.loadDump', file })} />
      ) : null}
    </Stack>
  );
}
