import './dom-setup.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ConfigTemplate } from '../../contracts/config-templates.ts';
import { type TemplateChange, templatesMachine } from '../../machines/ble/templates-machine.ts';
import type { ApiClient } from '../../src/api/api-client.ts';
import { loadCodecFile } from '../../src/codec/load-node.ts';
import { loadBundledProduct } from '../../src/device-config/load-product.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { configureSessionFor } from '../../src/features/devices/configure/configure-actors.ts';
import { TemplatesSection } from '../../src/features/devices/configure/templates-section.tsx';
import { theme } from '../../src/styles/theme.ts';

const STANDARD: ConfigTemplate = {
  id: 7,
  name: 'Standard',
  modelId: 'HX-5000',
  settings: { maxChargeCurrent: 35 },
  createdBy: 'installer@example.com',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedBy: 'installer@example.com',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

let session: ReturnType<typeof configureSessionFor>;
beforeAll(async () => {
  const codec = await loadCodecFile(join(process.cwd(), 'build/codec.wasm'));
  const product = await loadBundledProduct({ serialNumber: 'HX5K-24-000123' }, async (file) =>
    JSON.parse(await readFile(join(process.cwd(), 'public', file), 'utf8')),
  );
  session = configureSessionFor({ codec, product, bluetooth: null, demoStore: new MemoryConfigStore() });
});
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

/** The templates section over a company holding Standard; every change the service is asked for is kept. */
function showTemplates() {
  const asked: TemplateChange[] = [];
  let list = [STANDARD];
  const templates = createActor(
    templatesMachine.provide({
      actors: {
        loadTemplates: fromPromise(async () => list),
        changeTemplates: fromPromise<unknown, { modelId: string; change: TemplateChange }>(
          async ({ input }) => {
            asked.push(input.change);
            list = [];
          },
        ),
      },
    }),
    { input: { modelId: 'HX-5000' } },
  ).start();
  const sessionActor = createActor(session.logic, { input: session.input }).start();
  const view = render(
    <MantineProvider theme={theme} defaultColorScheme="light">
      <TemplatesSection
        session={sessionActor}
        templates={templates}
        api={(() => Promise.reject(new Error('no service'))) as unknown as ApiClient}
        modelName={(id) => id}
      />
    </MantineProvider>,
  );
  stop = () => {
    view.unmount();
    templates.stop();
    sessionActor.stop();
  };
  return { asked, templates, user: userEvent.setup() };
}

describe('deleting a settings template', () => {
  it('asks first in a dialog, keeps the template on "Keep it", and deletes it on "Delete"', async () => {
    const { asked, user } = showTemplates();
    const table = await screen.findByRole('table', { name: 'Templates of the HX-5000' });
    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    within(dialog).getByText('Delete the template “Standard”? What it wrote stays in the history.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(asked).toEqual([]);
    expect(screen.getByRole('table', { name: 'Templates of the HX-5000' })).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Deleted the template.');
    expect(asked).toEqual([{ kind: 'delete', id: STANDARD.id }]);
    await screen.findByText(/No templates of the HX-5000 yet/);
  });
});

describe('naming a template', () => {
  it('renames under the name typed, trimmed, and offers no Rename for a blank one', async () => {
    const { asked, user } = showTemplates();
    const table = await screen.findByRole('table', { name: 'Templates of the HX-5000' });
    await user.click(within(table).getByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename template' });
    const name = within(dialog).getByRole('textbox', { name: /^Template name/ });
    expect((name as HTMLInputElement).value).toBe('Standard');
    const rename = within(dialog).getByRole('button', { name: 'Rename' });
    await user.clear(name);
    await user.type(name, '   ');
    expect((rename as HTMLButtonElement).disabled).toBe(true);
    await user.clear(name);
    await user.type(name, ' Standard 2026 ');
    expect((rename as HTMLButtonElement).disabled).toBe(false);
    await user.click(rename);
    await screen.findByText('Renamed the template to “Standard 2026”.');
    expect(asked).toEqual([{ kind: 'rename', id: STANDARD.id, name: 'Standard 2026' }]);
  });

  it('saves the form as a template only under a name, and opens empty each time', async () => {
    const { asked, templates, user } = showTemplates();
    await screen.findByRole('table', { name: 'Templates of the HX-5000' });
    templates.send({ type: 'templates.draft', settings: { maxChargeCurrent: 40 } });
    let dialog = await screen.findByRole('dialog', { name: 'Save as template' });
    const save = () => within(dialog).getByRole('button', { name: 'Save template' }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    await user.type(within(dialog).getByRole('textbox', { name: /^Template name/ }), 'Night charge');
    expect(save().disabled).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    templates.send({ type: 'templates.draft', settings: { maxChargeCurrent: 40 } });
    dialog = await screen.findByRole('dialog', { name: 'Save as template' });
    const name = within(dialog).getByRole('textbox', { name: /^Template name/ }) as HTMLInputElement;
    expect(name.value).toBe('');
    await user.type(name, 'Night charge');
    await user.click(save());
    await screen.findByText('Saved the template “Night charge”.');
    expect(asked).toEqual([{ kind: 'create', name: 'Night charge', settings: { maxChargeCurrent: 40 } }]);
  });
});
