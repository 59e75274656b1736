/**
 * The codec module could not be loaded: missing, not WebAssembly, or built from older sources.
 * `source` names the file or URL; the message says how to fix it.
 */
export class CodecLoadError extends Error {
  readonly source: string;

  constructor(source: string, problem: string, options?: ErrorOptions) {
    super(`${source}: ${problem}`, options);
    this.name = 'CodecLoadError';
    this.source = source;
  }
}

const reason = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

/**
 * Compiles and instantiates module bytes through `build`, turning any failure into a
 * {@link CodecLoadError} that names `source` and says to rebuild.
 */
export async function compileCodec<T>(
  source: string,
  compile: () => Promise<WebAssembly.Module>,
  build: (module: WebAssembly.Module) => Promise<T>,
): Promise<T> {
  let module: WebAssembly.Module;
  try {
    module = await compile();
  } catch (cause) {
    throw new CodecLoadError(
      source,
      `not a valid WebAssembly module (${reason(cause)}); rebuild it with npm run build:wasm`,
      { cause },
    );
  }
  try {
    return await build(module);
  } catch (cause) {
    if (cause instanceof CodecLoadError) throw cause;
    throw new CodecLoadError(source, `${reason(cause)}; rebuild it with npm run build:wasm`, { cause });
  }
}
