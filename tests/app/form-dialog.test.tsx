import './dom-setup.ts';
import { FileInput, MantineProvider, TextInput } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type FormEvent, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FormDialog, type FormDialogProps } from '../../src/components/form-dialog.tsx';
import { theme } from '../../src/styles/theme.ts';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

type Shown = Partial<Pick<FormDialogProps, 'busy' | 'error' | 'submitDisabled'>> & { marked?: boolean };

/** A "Name the key" dialog with two fields; every close and submit it asks for is counted. */
function showDialog(shown: Shown = {}) {
  const asked = { closes: 0, submits: [] as string[] };
  const dialog = ({ busy = false, error = null, submitDisabled, marked = false }: Shown) => (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <FormDialog
        title="Name the key"
        onClose={() => {
          asked.closes += 1;
        }}
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          asked.submits.push(String(new FormData(event.currentTarget).get('name')));
        }}
        busy={busy}
        error={error}
        errorTitle="The key was not named"
        submitLabel="Save name"
        submitDisabled={submitDisabled}
      >
        <TextInput label="Name" name="name" required />
        <TextInput label="Note" name="note" data-autofocus={marked || undefined} />
      </FormDialog>
    </MantineProvider>
  );
  const view = render(dialog(shown));
  unmount = view.unmount;
  return { asked, rerender: (next: Shown) => view.rerender(dialog(next)), user: userEvent.setup() };
}

describe('a form dialog', () => {
  it('is named by its title, as is its form, and opens on its first field', async () => {
    showDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    expect(within(dialog).getByRole('form', { name: 'Name the key' })).toBeTruthy();
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await waitFor(() => expect(document.activeElement).toBe(name));
  });

  it('opens on the field marked data-autofocus when there is one', async () => {
    showDialog({ marked: true });
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    const note = within(dialog).getByRole('textbox', { name: 'Note' });
    await waitFor(() => expect(document.activeElement).toBe(note));
  });

  it("opens on a file field's button, not on its undrawn input", async () => {
    const view = render(
      <MantineProvider theme={theme} defaultColorScheme="light">
        <FormDialog
          title="Upload an image"
          onClose={() => {}}
          onSubmit={(event) => event.preventDefault()}
          busy={false}
          errorTitle="The image was not uploaded"
          submitLabel="Upload"
        >
          <FileInput label="Image file" placeholder="Choose a file" />
        </FormDialog>
      </MantineProvider>,
    );
    unmount = view.unmount;
    const dialog = await screen.findByRole('dialog', { name: 'Upload an image' });
    const file = within(dialog).getByRole('button', { name: /^Image file/ });
    await waitFor(() => expect(document.activeElement).toBe(file));
  });

  it('submits on Enter without the browser checking required fields, and closes on Escape and Cancel', async () => {
    const { asked, user } = showDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await waitFor(() => expect(document.activeElement).toBe(name));
    await user.keyboard('{Enter}');
    await user.type(name, 'Spreadsheet{Enter}');
    expect(asked.submits).toEqual(['', 'Spreadsheet']);
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(asked.closes).toBe(3);
  });

  it('shows why the last save failed, titled, above the buttons', async () => {
    const { rerender } = showDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    rerender({ error: 'That name is taken' });
    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toContain('The key was not named');
    expect(alert.textContent).toContain('That name is taken');
  });

  it('while saving, spins its action and cannot be closed by Escape, Cancel or the close button', async () => {
    const { asked, user } = showDialog({ busy: true });
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    const save = within(dialog).getByRole('button', { name: 'Save name' });
    expect(save.hasAttribute('data-loading')).toBe(true);
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(asked.closes).toBe(0);
    expect(screen.getByRole('dialog', { name: 'Name the key' })).toBeTruthy();
  });

  it('offers no action the caller says is not ready', async () => {
    const { asked, user } = showDialog({ submitDisabled: true });
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    const save = within(dialog).getByRole('button', { name: 'Save name' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.click(save);
    expect(asked.submits).toEqual([]);
  });
});

/** A page whose button opens a dialog mounted only while it is open. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <button type="button" onClick={() => setOpen(true)}>
        Rename
      </button>
      {open ? (
        <FormDialog
          title="Name the key"
          onClose={() => setOpen(false)}
          onSubmit={(event) => event.preventDefault()}
          busy={false}
          errorTitle="The key was not named"
          submitLabel="Save name"
        >
          <TextInput label="Name" />
        </FormDialog>
      ) : null}
    </MantineProvider>
  );
}

describe('a form dialog mounted while it is open', () => {
  it('gives focus back to the button that opened it when it closes', async () => {
    const view = render(<Opener />);
    unmount = view.unmount;
    const user = userEvent.setup();
    const rename = screen.getByRole('button', { name: 'Rename' });
    await user.click(rename);
    const dialog = await screen.findByRole('dialog', { name: 'Name the key' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Name' })),
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(rename));
  });
});
