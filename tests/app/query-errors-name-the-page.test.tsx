import './dom-setup.ts';
import { render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

it('names the page a query searched when it finds nothing', () => {
  ({ unmount } = render(<button type="button">Save site</button>));
  let caught: unknown;
  try {
    screen.getByRole('button', { name: 'Delete site' });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  expect((caught as Error).name).toBe('TestingLibraryElementError');
  expect((caught as Error).message).toMatch(/name "Delete site"/);
  expect((caught as Error).message).toContain('Save site');
});

it('names the page as it was when a wait for an element timed out', async () => {
  ({ unmount } = render(<p>Loading sites…</p>));
  const failed = await screen
    .findByRole('heading', { name: 'Sites' }, { timeout: 100 })
    .catch((e: Error) => e);
  expect(failed).toBeInstanceOf(Error);
  expect((failed as Error).message).toMatch(/role="heading"/);
  expect((failed as Error).message).toContain('Loading sites…');
  // The stack says what failed, as the message does.
  expect((failed as Error).stack).toMatch(/role="heading"/);
});
