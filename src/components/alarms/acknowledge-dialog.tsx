import { Text, Textarea } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { fromPromise } from 'xstate';
import type { Alarm } from '../../../contracts/monitoring.ts';
import {
  ACK_NOTE_MAX,
  alarmAcknowledgeMachine,
} from '../../../machines/monitoring/alarm-acknowledge-machine.ts';
import { acknowledgeAlarm } from '../../api/monitoring-api.ts';
import { usePageRefresh } from '../../app/page-refresh.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { FormDialog } from '../form-dialog.tsx';

/**
 * The acknowledge machine of a screen: its actor acknowledges through the monitoring service, and
 * the page's loaders run again as after every save (`usePageRefresh`).
 */
export function useAlarmAcknowledge() {
  const { monitoringApi } = useRuntime();
  const refresh = usePageRefresh();
  return useActorRef(
    alarmAcknowledgeMachine.provide({
      actors: {
        acknowledge: fromPromise<void, { id: number; note: string }>(async ({ input }) => {
          await acknowledgeAlarm(monitoringApi, input.id, input.note);
        }),
        refresh,
      },
    }),
  );
}

export type AlarmAcknowledgeRef = ReturnType<typeof useAlarmAcknowledge>;

/**
 * The dialog that acknowledges one alarm: what the alarm is, a note (required, up to 500
 * characters), and why it failed if it did; the note stays as typed.
 */
export function AcknowledgeDialog({
  actor,
  alarms,
}: {
  actor: AlarmAcknowledgeRef;
  alarms: readonly Alarm[];
}) {
  const alarmId = useSelector(actor, (s) => s.context.alarmId);
  const error = useSelector(actor, (s) => s.context.error);
  const noteError = useSelector(actor, (s) => s.context.noteError);
  const submitting = useSelector(actor, (s) => s.matches('submitting') || s.matches('refreshing'));
  const open = useSelector(actor, (s) => !s.matches('idle'));
  const alarm = alarms.find((a) => a.id === alarmId);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'ack.submit', note: String(new FormData(event.currentTarget).get('note') ?? '') });
  };
  return (
    <FormDialog
      title="Acknowledge alarm"
      opened={open}
      onClose={() => actor.send({ type: 'ack.cancel' })}
      onSubmit={submit}
      busy={submitting}
      error={error}
      errorTitle="The alarm was not acknowledged"
      submitLabel="Acknowledge"
    >
      {alarm ? (
        <Text size="sm">
          {alarm.serial === null
            ? `${alarm.message} at ${alarm.siteName}`
            : `${alarm.message} on ${alarm.serial} (${alarm.deviceName}) at ${alarm.siteName}`}
        </Text>
      ) : null}
      <Textarea
        name="note"
        label="Note"
        description="What is being done about it, or why it can wait. Everyone who sees the alarm reads it."
        required
        autosize
        minRows={3}
        maxLength={ACK_NOTE_MAX}
        data-autofocus
        error={noteError ?? undefined}
      />
    </FormDialog>
  );
}
