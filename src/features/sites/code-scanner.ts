import { fromCallback } from 'xstate';
import type { AddDeviceEvent } from '../../../machines/commissioning/add-device-machine.ts';

/** The part of the standard BarcodeDetector the scanner uses. */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}

type DetectorClass = new (options?: { formats?: string[] }) => Detector;

/** Serial labels carry a QR code or a linear barcode. */
const FORMATS = ['qr_code', 'data_matrix', 'code_128', 'code_39', 'ean_13'];

/** How often a frame of the camera is read while looking for a code. */
const SCAN_INTERVAL_MS = 200;

/**
 * The browser's own BarcodeDetector where it has one, else the `barcode-detector` polyfill, whose
 * ZXing WebAssembly is served from this origin (bundled by Vite as an asset and precached by the
 * service worker): nothing is fetched from anywhere else.
 */
async function barcodeDetector(): Promise<Detector> {
  const native = (
    globalThis as { BarcodeDetector?: DetectorClass & { getSupportedFormats?(): Promise<string[]> } }
  ).BarcodeDetector;
  if (native) {
    const supported = (await native.getSupportedFormats?.()) ?? FORMATS;
    const formats = FORMATS.filter((format) => supported.includes(format));
    if (formats.length > 0) return new native({ formats });
  }
  const [{ BarcodeDetector, setZXingModuleOverrides }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  setZXingModuleOverrides({
    locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  });
  return new BarcodeDetector({ formats: FORMATS as never });
}

/** What the person reads when the camera cannot be used. */
function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError')
    return 'The camera may not be used: allow it in the browser, or type the serial number.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No camera was found: type the serial number, or read it over Bluetooth.';
  if (!navigator.mediaDevices?.getUserMedia)
    return 'This browser cannot use a camera here: type the serial number, or read it over Bluetooth.';
  return `The camera could not be used (${error instanceof Error ? error.message : String(error)}).`;
}

/**
 * Opens the rear camera, reports its stream for the preview, reads frames until one holds a
 * code and reports its text; the camera is released when the actor stops (a code found, Cancel,
 * or the dialog closed).
 */
export const scanCode = fromCallback<AddDeviceEvent>(({ sendBack }) => {
  let stopped = false;
  let stream: MediaStream | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    for (const track of stream?.getTracks() ?? []) track.stop();
  };
  (async () => {
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      });
      if (stopped) return release();
      sendBack({ type: 'scan.stream', stream });
      const detector = await barcodeDetector();
      const video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.srcObject = stream;
      await video.play();
      const look = async () => {
        if (stopped) return;
        const codes = await detector.detect(video).catch(() => []);
        const code = codes.find((found) => found.rawValue.trim() !== '');
        if (code) sendBack({ type: 'scan.found', text: code.rawValue });
        else timer = setTimeout(look, SCAN_INTERVAL_MS);
      };
      await look();
    } catch (error) {
      if (!stopped) sendBack({ type: 'scan.failed', message: cameraProblem(error) });
    }
  })();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    release();
  };
});
