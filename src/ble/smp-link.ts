import { SmpFrameError } from '../smp/smp-frame.ts';
import { TRANSPORT_MESSAGES, TransportError } from './transport-error.ts';

/**
 * A link to a device's SMP service (MCUmgr over Bluetooth): requests are written without response,
 * answers come by notification, whole messages either way. `connect` opens the link and subscribes;
 * it may be called again after the link dropped (the same device, no chooser).
 */
export interface SmpLink {
  readonly id: string;
  /** Advertised name: the device's serial number. */
  readonly name: string;
  /** @throws TransportError 'out-of-range', 'missing-service', 'unavailable'. */
  connect(): Promise<void>;
  disconnect(): void;
  /** Writes one whole SMP message. @throws TransportError 'disconnected'. */
  send(message: Uint8Array): Promise<void>;
  /** Whole SMP messages from the device; returns an unsubscribe function. */
  onMessage(listener: (message: Uint8Array) => void): () => void;
  /** Called when the link drops without the caller asking (out of range, the device restarted). */
  onLost(listener: () => void): () => void;
}

/** A way to reach a device's SMP service: Web Bluetooth, or the demo device in the page. */
export interface SmpTransport {
  readonly kind: 'web-bluetooth' | 'simulated';
  /**
   * Lets the person choose the device (the browser's chooser for Web Bluetooth).
   * @param namePrefix devices advertise their serial number; it starts with the model's prefix.
   * @returns the link, or null when the person closed the chooser.
   */
  choose(namePrefix: string): Promise<SmpLink | null>;
}

/** An answer not heard in this long counts as a lost link. */
export const SMP_ANSWER_TIMEOUT_MS = 15_000;

/**
 * One request at a time over a link: sends the message and resolves with the next message the
 * device sends, or fails as soon as the link drops or the device stays silent.
 * @example const client = new SmpClient(smpExchange(link));
 */
export function smpExchange(link: SmpLink, timeoutMs = SMP_ANSWER_TIMEOUT_MS) {
  return (message: Uint8Array): Promise<Uint8Array> =>
    new Promise<Uint8Array>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        stopMessages();
        stopLost();
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new TransportError(
            'disconnected',
            `${TRANSPORT_MESSAGES.disconnected} The device stopped answering.`,
          ),
        );
      }, timeoutMs);
      const stopMessages = link.onMessage((answer) => {
        done();
        resolve(answer);
      });
      const stopLost = link.onLost(() => {
        done();
        reject(new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected));
      });
      link.send(message).catch((error: unknown) => {
        done();
        reject(error instanceof SmpFrameError ? new TransportError('bad-answer', error.message) : error);
      });
    });
}
