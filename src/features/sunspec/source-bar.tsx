import { Button, FileButton, Group } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { sunspecConfigMachine } from './sunspec-config-machine.ts';

type Actor = ActorRefFrom<typeof sunspecConfigMachine>;

/** Where a device comes from: the demo device, a dump file, and extra model definitions. */
export function SourceBar({ actor }: { actor: Actor }) {
  const canLoad = useSelector(actor, (s) => s.can({ type: 'sunspec.loadDemo' }));
  const loaded = useSelector(actor, (s) => s.context.loaded);
  return (
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
          <Button variant="default" disabled={!canLoad || !loaded} {...props}>
            Add model definitions…
          </Button>
        )}
      </FileButton>
    </Group>
  );
}
