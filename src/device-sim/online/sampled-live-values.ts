import type { SimulatedDevice } from '../simulated-device.ts';
import type { FrameAnswerer } from './socket-device.ts';

/**
 * A simulated device whose telemetry samples every live value only once per `everyMs`, and in
 * between sends that sample again at the time it is taken (its time item set, its CRC sealed
 * again). For load tests: a real sample costs the simulator milliseconds, so thousands of
 * devices a second would need more cores than the service they test; the service's work per
 * reading is the same whatever the values. `everyMs` 0: the device itself, a real sample each time.
 * @example new SocketDevice({ …, device: sampledLiveValues(fleet.device(serial), 300_000) })
 */
export function sampledLiveValues(device: SimulatedDevice, everyMs: number, now = Date.now): FrameAnswerer {
  if (everyMs <= 0) return device;
  let sample: Uint8Array | undefined;
  let sampledAt = 0;
  return {
    request: (frame) => device.request(frame),
    connect: () => device.connect(),
    disconnect: () => device.disconnect(),
    liveValuesFrame: () => {
      const t = now();
      if (!sample || t - sampledAt >= everyMs) {
        sample = device.liveValuesFrame();
        sampledAt = t;
        return sample;
      }
      return device.restampedFrame(sample, t);
    },
  };
}
