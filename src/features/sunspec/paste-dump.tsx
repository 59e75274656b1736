import { Button, Stack, Textarea } from '@mantine/core';
import { type FormEvent, useState } from 'react';

/** A dump pasted as text (from a Modbus tool or the command line), read like an opened file. */
export function PasteDump({ disabled, onRead }: { disabled: boolean; onRead: (file: File) => void }) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRead(new File([text], 'Pasted dump', { type: 'text/plain' }));
  };
  return (
    <form onSubmit={submit} aria-label="Paste a register dump">
      <Stack gap="xs" align="flex-start">
        <Textarea
          w="100%"
          label="Register dump (hex)"
          description="Hex of the registers, with an optional @address first, e.g. @40000 5375 6e53 0001 0042 …"
          autosize
          minRows={2}
          maxRows={8}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Button type="submit" variant="default" size="xs" disabled={disabled || text.trim() === ''}>
          Read pasted dump
        </Button>
      </Stack>
    </form>
  );
}
