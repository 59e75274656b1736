import '../styles/mantine-all.css';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { leaveConsequences } from '../../machines/unsaved-work/unsaved-work-selectors.ts';
import { useRuntime } from '../app/runtime-context.tsx';

/** "Leave this screen?" with what leaving would lose; "Stay" has the focus, Escape stays too. */
export default function LeaveQuestion() {
  const { unsavedWork } = useRuntime();
  const consequences = useSelector(unsavedWork, leaveConsequences, (a, b) => a.join() === b.join());
  const stay = () => unsavedWork.send({ type: 'leave.stay' });
  return (
    <Modal opened onClose={stay} title="Leave this screen?">
      <Stack>
        <Text>If you leave now:</Text>
        <List>
          {consequences.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button variant="default" data-autofocus onClick={stay}>
            Stay
          </Button>
          <Button color="red" onClick={() => unsavedWork.send({ type: 'leave.go' })}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
