import { Alert, Button, Group, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface SecretShownOnceProps {
  /** The field's label: `Key “CRM sync”`. */
  label: string;
  value: string;
  /** What it is, in the sentences around it: "key", "secret". */
  noun: string;
  /** Why to copy it now, under "Copy it now": it will not be shown again, and what it gives. */
  warning: ReactNode;
  /** Said under the value: "It expires Feb 26, 2027." */
  note?: ReactNode;
  /** The last copy's outcome: on the clipboard, refused by the browser, or none yet. */
  copy: 'copied' | 'refused' | null;
  /** Whether a copy can be asked now (the machine takes it). */
  canCopy: boolean;
  onCopy: () => void;
  onDone: () => void;
}

/**
 * A secret shown once (an API key, a webhook's signing secret): the warning to copy it now, the
 * value to select, Copy and Done, what happened to the copy (said to screen readers too), and
 * what to do when the browser refuses it.
 */
export function SecretShownOnce({
  label,
  value,
  noun,
  warning,
  note,
  copy,
  canCopy,
  onCopy,
  onDone,
}: SecretShownOnceProps) {
  return (
    <>
      <Alert
        color="yellow"
        icon={<IconAlertTriangle aria-hidden />}
        title="Copy it now"
        // Yellow on the alert's light yellow is too faint to read: the title takes the text colour.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {warning}
      </Alert>
      <TextInput
        label={label}
        readOnly
        value={value}
        onFocus={(event) => event.currentTarget.select()}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      {note ? (
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      ) : null}
      {copy === 'refused' ? (
        <Text size="sm" c="red" role="alert">
          The browser refused to copy: select the {noun} and copy it yourself.
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button
          variant="default"
          leftSection={
            copy === 'copied' ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
          }
          disabled={!canCopy}
          onClick={onCopy}
        >
          {copy === 'copied' ? 'Copied' : `Copy ${noun}`}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </Group>
      <Text size="xs" c="dimmed" role="status" aria-live="polite">
        {copy === 'copied' ? `The ${noun} is on the clipboard.` : ''}
      </Text>
    </>
  );
}
