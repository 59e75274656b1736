import { Alert, Button, Group, Modal, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { STANDARD_COMMANDS } from '../../../../contracts/catalogue.ts';
import type { ConfigureSessionActor } from '../../../../machines/ble/configure-session-machine.ts';
import { READABLE_ALERT } from './readable-styles.ts';

const STANDARD = new Set<string>(Object.values(STANDARD_COMMANDS));

/** The catalogue's own commands (restart, reset counters, …) as buttons, each confirmed first. */
export function CommandsSection({ session }: { session: ConfigureSessionActor }) {
  const { command, product } = useSelector(session, (s) => s.context);
  const state = useSelector(command, (s) => s);
  const commands = product.entry.commands.filter((c) => !STANDARD.has(c.name));
  // The buttons ask both machines: the session (link open, device unlocked) and the command (none running).
  const ask = commands[0] ? { type: 'command.ask' as const, command: commands[0] } : null;
  const sessionTakes = useSelector(session, (s) => (ask ? s.can(ask) : false));
  const commandTakes = ask ? state.can(ask) : false;
  if (commands.length === 0) return null;
  const asked = state.context.command;
  return (
    <section aria-labelledby="commands-title">
      <Title order={3} size="h4" id="commands-title" mb="xs">
        Commands
      </Title>
      <Group gap="sm">
        {commands.map((c) => (
          <Button
            key={c.opCode}
            variant="default"
            disabled={!sessionTakes || !commandTakes}
            onClick={() => session.send({ type: 'command.ask', command: c })}
          >
            {c.name}
          </Button>
        ))}
      </Group>
      {state.matches('done') && asked ? (
        <Alert
          styles={READABLE_ALERT}
          mt="sm"
          color="teal"
          role="status"
          withCloseButton
          onClose={() => session.send({ type: 'command.dismiss' })}
        >
          {asked.name}: done.
        </Alert>
      ) : null}
      {state.matches('failed') && asked ? (
        <Alert
          styles={READABLE_ALERT}
          mt="sm"
          color="red"
          role="alert"
          withCloseButton
          onClose={() => session.send({ type: 'command.dismiss' })}
        >
          {asked.name} failed: {state.context.problem?.message}
        </Alert>
      ) : null}
      <Modal
        opened={state.matches('confirming') || state.matches('running')}
        onClose={() => session.send({ type: 'command.cancel' })}
        title={asked ? `${asked.name}?` : ''}
      >
        <Text mb="md">The device carries out “{asked?.name}” at once. This cannot be undone.</Text>
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => session.send({ type: 'command.cancel' })}
            disabled={state.matches('running')}
          >
            Cancel
          </Button>
          <Button
            color="red"
            loading={state.matches('running')}
            onClick={() => session.send({ type: 'command.confirm' })}
          >
            {asked?.name ?? 'Run'}
          </Button>
        </Group>
      </Modal>
    </section>
  );
}
