import { fromCallback, fromPromise } from 'xstate';
import {
  exchange,
  type ReadConfiguration,
  readConfiguration,
  runCommand,
  sendPassword,
  sendProvisioning,
} from '../../src/ble/device-commands.ts';
import type { BleLink, BleTarget, BleTransport } from '../../src/ble/transport.ts';
import { TRANSPORT_MESSAGES, TransportError } from '../../src/ble/transport-error.ts';
import { WriteValidationError } from '../../src/ble/write-validation-error.ts';
import type { Codec } from '../../src/codec/types.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { OPCODE, type Provisioning } from '../../src/device-protocol/protocol.ts';
import type { ReadyLink, ReconnectInput } from './ble-types.ts';
import type { ConnectionEvent } from './connection-machine.ts';
import type { WriteRequest } from './write-machine.ts';

/** How often the signal strength is read while connected. */
export const RSSI_INTERVAL_MS = 2_000;

/**
 * The real actors of the three Bluetooth machines, over a codec and one product: pass them to
 * `machine.provide({ actors })`. Tests use the same actors over the simulated transport.
 * @example createActor(connectionMachine.provide({ actors: createBleActors({ codec, product }).connection }), …)
 */
export function createBleActors({ codec, product }: { codec: Codec; product: DeviceProduct }) {
  const read = (link: BleLink): Promise<ReadConfiguration> => readConfiguration(codec, link, product);
  const connectAndRead = async (link: BleLink): Promise<ReadConfiguration> => {
    await link.connect();
    await link.discover();
    return read(link);
  };
  return {
    connection: {
      chooseDevice: fromPromise<BleLink | null, { transport: BleTransport; target: BleTarget }>(({ input }) =>
        input.transport.choose(input.target),
      ),
      connectLink: fromPromise<void, { link: BleLink }>(({ input }) => input.link.connect()),
      discoverLink: fromPromise<ReadConfiguration, { link: BleLink }>(async ({ input }) => {
        await input.link.discover();
        return read(input.link);
      }),
      readConfig: fromPromise<ReadConfiguration, { link: BleLink }>(({ input }) => read(input.link)),
      reconnect: fromPromise<ReadyLink, ReconnectInput>(async ({ input }) => {
        const link = await input.transport.known(input.id, input.target);
        if (!link) throw new TransportError('unknown-device', TRANSPORT_MESSAGES.unknownDevice);
        return { link, config: await connectAndRead(link) };
      }),
      watchLink: fromCallback<ConnectionEvent, { link: BleLink }>(({ input, sendBack }) => {
        const stop = input.link.onLost(() => sendBack({ type: 'ble.lost' }));
        const poll = () => {
          input.link.rssi().then(
            (rssi) => sendBack({ type: 'ble.rssi', rssi }),
            () => sendBack({ type: 'ble.rssi', rssi: undefined }),
          );
        };
        poll();
        const timer = setInterval(poll, RSSI_INTERVAL_MS);
        return () => {
          stop();
          clearInterval(timer);
        };
      }),
    },
    password: {
      checkPassword: fromPromise<boolean, { link: BleLink; password: string }>(({ input }) =>
        sendPassword(codec, input.link, product, input.password),
      ),
    },
    provision: {
      give: fromPromise<void, { link: BleLink; provisioning: Provisioning }>(({ input }) =>
        sendProvisioning(codec, input.link, product, input.provisioning),
      ),
    },
    command: {
      runCommand: fromPromise<void, { link: BleLink; opCode: number }>(({ input }) =>
        runCommand(codec, input.link, product, input.opCode),
      ),
    },
    write: {
      prepareWrite: fromPromise<Uint8Array, WriteRequest>(async ({ input }) => {
        const result = encodeConfiguration(codec, product.config, input.groups, input.values, input.base, {
          opcode: OPCODE.writeConfiguration,
        });
        if (!result.ok) throw new WriteValidationError(result.errors);
        return result.frame;
      }),
      sendWrite: fromPromise<Uint8Array, { link: BleLink; frame: Uint8Array }>(({ input }) =>
        exchange(codec, input.link, input.frame),
      ),
      readBack: fromPromise<ReadConfiguration, { link: BleLink }>(({ input }) => read(input.link)),
    },
  };
}
