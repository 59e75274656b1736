import './dom-setup.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MantineProvider } from '@mantine/core';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BleTransport } from '../../src/ble/transport.ts';
import { TransportError } from '../../src/ble/transport-error.ts';
import { loadCodecFile } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { type DeviceProduct, loadBundledProduct } from '../../src/device-config/load-product.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { configureSessionFor } from '../../src/features/devices/configure/configure-actors.ts';
import {
  ConfigureSessionView,
  type LoadedPanel,
} from '../../src/features/devices/configure/configure-panel.tsx';
import { theme } from '../../src/styles/theme.ts';

const SERIAL = 'HX5K-24-000123';

let codec: Codec;
let product: DeviceProduct;
beforeAll(async () => {
  codec = await loadCodecFile(join(process.cwd(), 'build/codec.wasm'));
  product = await loadBundledProduct({ serialNumber: SERIAL }, async (file) =>
    JSON.parse(await readFile(join(process.cwd(), 'public', file), 'utf8')),
  );
});
let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function loadedPanel(options: { bluetooth?: BleTransport | null; demoStore?: MemoryConfigStore } = {}) {
  const session = configureSessionFor({
    codec,
    product,
    serialNumber: SERIAL,
    bluetooth: options.bluetooth ?? null,
    demoStore: options.demoStore ?? new MemoryConfigStore(),
  });
  return { product, session } satisfies LoadedPanel;
}

function show(ui: React.ReactNode) {
  const view = render(
    <MantineProvider theme={theme} defaultColorScheme="light">
      {ui}
    </MantineProvider>,
  );
  unmount = view.unmount;
  return { user: userEvent.setup() };
}

async function connectDemo(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Use demo device' }));
  await screen.findByText('Connected to the demo device');
}

async function unlock(user: ReturnType<typeof userEvent.setup>, password = '0000') {
  await user.type(screen.getByLabelText('Device password'), password);
  await user.click(screen.getByRole('button', { name: 'Unlock' }));
  await screen.findByText('Unlocked: the settings can be changed.');
}

describe('the Configure panel', () => {
  it('keeps its Bluetooth link when the page re-renders it with new props', async () => {
    const loaded = loadedPanel();
    function Page() {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setRenders(renders + 1)}>
            Render the page again ({renders})
          </button>
          {/* New props on every render, as a parent's own state gives. */}
          <ConfigureSessionView loaded={loaded} subtitle={`Helios HX-5000 (${renders})`} />
        </>
      );
    }
    const { user } = show(<Page />);
    await connectDemo(user);
    for (let i = 1; i <= 3; i += 1) {
      await user.click(screen.getByRole('button', { name: /Render the page again/ }));
      await screen.findByRole('button', { name: `Render the page again (${i})` });
    }
    // Still the first session and its link: a restarted one would say "Not connected".
    expect(screen.getByTestId('connection-state').textContent).toBe('Connected to the demo device');
    await unlock(user);
    screen.getByRole('button', { name: 'Disconnect' });
  });

  it('speaks in labels, times of day and limits, and says what it cannot change and why', async () => {
    const { user } = show(<ConfigureSessionView loaded={loadedPanel()} subtitle="Helios HX-5000" />);
    // Where the demo is offered, its password is said.
    expect(screen.getByText(/The demo device is a simulated Helios HX-5000/).textContent).toContain(
      'with the password 0000',
    );
    await connectDemo(user);
    await unlock(user);
    const workMode = screen.getByLabelText<HTMLSelectElement>(/^Work mode/);
    expect([...workMode.options].map((o) => o.text)).toEqual([
      'Self-use',
      'Feed-in first',
      'Backup',
      'Off-grid',
    ]);
    expect(screen.queryByText(/0 self-use/)).toBeNull();
    const chargeStart = screen.getByRole('group', { name: /^Grid charge starts at/ });
    expect(within(chargeStart).getByLabelText<HTMLSelectElement>('Hour').value).toBe('2');
    expect(within(chargeStart).getByLabelText<HTMLSelectElement>('Minute').value).toBe('00');
    expect(within(chargeStart).getByLabelText<HTMLSelectElement>('am or pm').value).toBe('am');
    const described = screen.getByLabelText(/^Max charge current/).getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described.split(' ')[0] ?? '')?.textContent).toBe('0 to 100 A');
    screen.getByText(/firmware 2\.4 does not take it over Bluetooth/);
    const factory = screen.getByRole('group', { name: 'Factory calibration' });
    within(factory).getByText(/never changed in the field/);
    within(factory).getByText('Grid voltage correction');
    // The clock field says what Write does with it; connecting does not count it as a change.
    screen.getByText(/Write sets the device's clock to it/);
    screen.getByText("The device's clock reads Jan 1, 2025, 12:00 am.");
    screen.getByText('No changes');

    await user.selectOptions(within(chargeStart).getByLabelText('Hour'), '3');
    await user.selectOptions(within(chargeStart).getByLabelText('Minute'), '30');
    await user.selectOptions(workMode, 'Backup');
    screen.getByText('2 changed');
    await user.click(screen.getByRole('button', { name: 'Write' }));
    await screen.findByText('Written and verified');
    expect(
      within(screen.getByRole('group', { name: /^Grid charge starts at/ })).getByLabelText<HTMLSelectElement>(
        'Minute',
      ).value,
    ).toBe('30');
  });

  it('says next to Write which field needs a fix, and moves focus to the first one', async () => {
    const { user } = show(<ConfigureSessionView loaded={loadedPanel()} subtitle="Helios HX-5000" />);
    await connectDemo(user);
    await unlock(user);
    const current = screen.getByLabelText<HTMLInputElement>(/^Max charge current/);
    await user.clear(current);
    await user.type(current, '250');
    await user.click(screen.getByRole('button', { name: 'Write' }));
    const write = screen.getByRole('button', { name: 'Write' });
    const said = document.getElementById(write.getAttribute('aria-describedby') ?? '');
    expect(said?.textContent).toMatch(/^Max charge current needs a fix before Write\.$/);
    expect(document.activeElement).toBe(current);
    expect(screen.queryByText('Written and verified')).toBeNull();
  });

  it('after a failed connect, offers Try again or Dismiss, never Disconnect beside "Not connected"', async () => {
    const failing: BleTransport = {
      kind: 'web-bluetooth',
      choose: async () => {
        throw new TransportError('unavailable', 'Bluetooth is switched off on this device.');
      },
      known: async () => null,
    };
    const { user } = show(<ConfigureSessionView loaded={loadedPanel({ bluetooth: failing })} subtitle="x" />);
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText('Not connected: the last attempt failed');
    screen.getByText('Bluetooth is switched off on this device.');
    expect(screen.queryByRole('button', { name: 'Disconnect' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await screen.findByText('Not connected');
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => undefined);
  });
});
