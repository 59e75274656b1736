import './dom-setup.ts';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { afterEach, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { unsavedWorkMachine } from '../../machines/unsaved-work/unsaved-work-machine.ts';
import type { AppRuntime } from '../../src/app/app-runtime.ts';
import { RuntimeProvider } from '../../src/app/runtime-context.tsx';
import { SiteForm } from '../../src/features/sites/site-form.tsx';
import { EMPTY_SITE_FORM } from '../../src/features/sites/site-form-schema.ts';
import { theme } from '../../src/styles/theme.ts';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

/**
 * A new site's form with no maps key (the parts are typed), and a count of the times React
 * commits anything inside it.
 */
function showNewSiteForm() {
  const drawn = { commits: 0 };
  // The form reads only the maps key and the leave guard from the runtime.
  const runtime = {
    config: { mapsApiKey: null },
    unsavedWork: createActor(unsavedWorkMachine).start(),
  } as unknown as AppRuntime;
  const view = render(
    <MantineProvider theme={theme} defaultColorScheme="light">
      <RuntimeProvider runtime={runtime}>
        <Profiler
          id="site-form"
          onRender={() => {
            drawn.commits += 1;
          }}
        >
          <SiteForm
            mode="create"
            defaultValues={EMPTY_SITE_FORM}
            submitLabel="Create site"
            onSave={() => {}}
            save={{ pending: false, error: null, holdsEdits: (isDirty) => isDirty }}
            onCancel={() => {}}
          />
        </Profiler>
      </RuntimeProvider>
    </MantineProvider>,
  );
  unmount = view.unmount;
  return { drawn, user: userEvent.setup() };
}

it("draws nothing again for each key typed in the site's name: the address does not depend on it", async () => {
  const { drawn, user } = showNewSiteForm();
  // The hint shows once the maps are known to be missing: the form has settled.
  await screen.findByText(/^Type the address/);
  const name = screen.getByRole('textbox', { name: /^Site name/ });
  const before = drawn.commits;
  await user.type(name, 'Harbour Workshop');
  expect(name).toHaveProperty('value', 'Harbour Workshop');
  // Once, when the form first holds unsaved work; not once per key (16 of them).
  expect(drawn.commits - before).toBeLessThanOrEqual(2);
});

it('still makes the address line from the parts as they are typed', async () => {
  const { user } = showNewSiteForm();
  await screen.findByText(/^Type the address/);
  await user.type(screen.getByRole('textbox', { name: /^Street\s*\*?$/ }), 'Harbour Rd');
  await user.type(screen.getByRole('textbox', { name: /^Town or city/ }), 'Portside');
  expect(screen.getByTestId('address-line').textContent).toBe('Harbour Rd, Portside');
});
