import { ConfigurePanel } from './configure-panel.tsx';

/**
 * The signed-in device's Bluetooth configuration: the Configure panel for its model and serial,
 * with its configuration history, which every verified write over Bluetooth adds to (queued while
 * offline). A write to the demo device is not the device's and is not recorded.
 * @example <DeviceConfiguration serial="HX5K-24-000123" modelId="HX-5000" />
 */
export function DeviceConfiguration({ serial, modelId }: { serial: string; modelId: string }) {
  // Another device is another session: the key starts a new one instead of reusing this one.
  return (
    <ConfigurePanel key={`${modelId}:${serial}`} serialNumber={serial} productId={modelId} withHistory />
  );
}
