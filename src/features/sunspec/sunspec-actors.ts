import { fromPromise } from 'xstate';
import type { Loaded, LoadRequest, Tools } from '../../../machines/sunspec/sunspec-config-machine.ts';
import { loadCodec } from '../../codec/load-browser.ts';
import { loadBundledModels } from '../../sunspec/bundled-models.ts';
import { buildCatalogue, describeSkipped, parseDefinitionFiles } from '../../sunspec/catalogue.ts';
import { decodeDevice } from '../../sunspec/decode-device.ts';
import { DemoSunSpecDevice } from '../../sunspec/demo-device.ts';
import { parseDump } from '../../sunspec/register-dump.ts';
import { SunSpecError } from '../../sunspec/sunspec-error.ts';
import { whenIdle } from '../../when-idle.ts';

/**
 * Loads the bundled definitions and the Wasm codec (for the CRC) in the browser, once the page is
 * idle: on the page the build prerendered, once the person starts using it (`whenIdle`), so that
 * checking and building the models is not in the way of the page's start on a slow phone. A
 * device asked for meanwhile waits for them in the machine.
 */
export const prepareTools = fromPromise<Tools>(async () => {
  await whenIdle();
  const [bundled, codec] = await Promise.all([loadBundledModels(), loadCodec()]);
  return { bundled, catalogue: buildCatalogue(bundled), crc16: (bytes) => codec.crc16(bytes) };
});

/** Loads the demo device, a register dump file, or extra definition files (re-reading the device). */
export const loadSource = fromPromise<Loaded, { request: LoadRequest; tools: Tools; loaded: Loaded | null }>(
  async ({ input: { request, tools, loaded } }) => {
    const userModels = loaded?.userModels ?? [];
    if (request.kind === 'definitions') {
      const files = await Promise.all(
        request.files.map(async (f) => ({ name: f.name, text: await f.text() })),
      );
      // A bad file is skipped with its name and reason; the other files of the folder load.
      const { models: added, skipped } = parseDefinitionFiles(files);
      const merged = [...userModels.filter((m) => !added.some((a) => a.id === m.id)), ...added];
      const catalogue = buildCatalogue(tools.bundled, merged);
      if (!loaded)
        return Promise.reject(
          new SunSpecError('bad-definition', 'Load a device first, then add definitions.'),
        );
      if (added.length === 0 && skipped.length > 0)
        return Promise.reject(
          new SunSpecError('bad-definition', `No definition loaded: ${describeSkipped(skipped).join('; ')}`),
        );
      return {
        ...loaded,
        userModels: merged,
        catalogue,
        skipped,
        device: decodeDevice(loaded.dump, catalogue),
      };
    }
    const catalogue = buildCatalogue(tools.bundled, userModels);
    if (request.kind === 'demo') {
      const demo = new DemoSunSpecDevice(tools.catalogue);
      const dump = demo.read();
      return {
        dump,
        demo,
        userModels,
        catalogue,
        source: 'Demo SunSpec device',
        skipped: [],
        device: decodeDevice(dump, catalogue),
      };
    }
    const text = await request.file.text();
    try {
      const dump = parseDump(text);
      return {
        dump,
        demo: null,
        userModels,
        catalogue,
        source: request.file.name,
        skipped: [],
        device: decodeDevice(dump, catalogue),
      };
    } catch (error) {
      throw error instanceof SunSpecError
        ? new SunSpecError(error.code, `${request.file.name}: ${error.message}`)
        : error;
    }
  },
);
