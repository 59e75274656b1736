import { Box, Text } from '@mantine/core';
import { type KeyboardEvent, useId, useState } from 'react';
import { hexByte } from '../../../machines/remote-debugger/hex.ts';
import type { ByteMeaning } from '../../../machines/remote-debugger/read-answer.ts';

/** Bytes per row on a wide screen; the grid wraps to fewer on a phone. */
const ROW = 16;

/** Two tints that alternate from one field to the next, so that field boundaries show. */
const TINTS = ['var(--mantine-color-blue-1)', 'var(--mantine-color-teal-1)'];

function tints(length: number, meanings: Record<number, ByteMeaning>): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let previous: ByteMeaning | undefined;
  let turn = 0;
  for (let i = 0; i < length; i++) {
    const meaning = meanings[i];
    if (meaning && meaning !== previous) turn += 1;
    out.push(meaning ? TINTS[turn % 2] : undefined);
    previous = meaning;
  }
  return out;
}

/** What a byte shows: its hex, or dots for a byte of the device password. */
const shown = (byte: number, meaning: ByteMeaning | undefined) => (meaning?.secret ? '••' : hexByte(byte));

function describe(index: number, byte: number, meaning: ByteMeaning | undefined): string {
  const where = meaning?.secret ? `Byte ${index} (hidden)` : `Byte ${index} = 0x${hexByte(byte)}`;
  return meaning ? `${where}: ${meaning.field} = ${meaning.value}` : `${where}: padding`;
}

/** An option's name starts with what it shows, so what is seen is what is heard. */
function optionName(index: number, byte: number, meaning: ByteMeaning | undefined): string {
  const what = meaning?.secret ? 'hidden' : hexByte(byte);
  return `${what}, byte ${index}${meaning ? `, ${meaning.field} = ${meaning.value}` : ''}`;
}

/**
 * A frame as a hex dump with the fields laid over it: hover a byte, or focus the dump and move with
 * the arrow keys (Home/End, PageUp/PageDown by row), to read its field name and value.
 */
export function HexDump({
  label,
  bytes,
  meanings = {},
}: {
  label: string;
  bytes: Uint8Array;
  meanings?: Record<number, ByteMeaning>;
}) {
  const id = useId();
  const [active, setActive] = useState(0);
  const current = Math.min(active, bytes.length - 1);
  const tint = tints(bytes.length, meanings);
  const move = (event: KeyboardEvent) => {
    const steps: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: ROW,
      ArrowUp: -ROW,
      PageDown: ROW * 4,
      PageUp: -ROW * 4,
      Home: -bytes.length,
      End: bytes.length,
    };
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    setActive(Math.max(0, Math.min(bytes.length - 1, current + step)));
  };
  if (bytes.length === 0) return null;
  return (
    <div>
      <Box
        role="listbox"
        aria-label={label}
        aria-activedescendant={`${id}-${current}`}
        aria-describedby={`${id}-detail`}
        tabIndex={0}
        onKeyDown={move}
        ff="monospace"
        fz="sm"
        style={{ display: 'flex', flexWrap: 'wrap', gap: 2, maxWidth: `${ROW * 2.4}em` }}
      >
        {Array.from(bytes, (byte, i) => (
          <Box
            // biome-ignore lint/suspicious/noArrayIndexKey: a byte's place in the frame is its identity
            key={i}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === current}
            aria-label={optionName(i, byte, meanings[i])}
            onMouseEnter={() => setActive(i)}
            onClick={() => setActive(i)}
            px={3}
            style={{
              width: '2.2em',
              textAlign: 'center',
              borderRadius: 3,
              background: tint[i],
              outline: i === current ? '2px solid var(--mantine-color-blue-8)' : undefined,
              cursor: 'default',
            }}
          >
            {shown(byte, meanings[i])}
          </Box>
        ))}
      </Box>
      <Text id={`${id}-detail`} size="sm" mt={4} aria-live="polite">
        {describe(current, bytes[current] ?? 0, meanings[current])}
      </Text>
    </div>
  );
}
