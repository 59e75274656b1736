import { createPrivateKey } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseVersion, SignInputError, signImage } from './sign-image.ts';

const USAGE =
  'Usage: npm run firmware:sign -- --key <private-key.pem> --model <modelId> --version <x.y.z[+build]> --in <payload> --out <image>';

/**
 * `npm run firmware:sign`: an MCUboot image of a payload, signed with an Ed25519 key (PEM, PKCS #8:
 * the server's development key `DATA_DIR/firmware-signing-key.pem`, or `openssl genpkey -algorithm
 * ed25519`). Exit 0 and one line naming the image; 2 for bad arguments; 1 when a file cannot be
 * read or written.
 */
async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        key: { type: 'string' },
        model: { type: 'string' },
        version: { type: 'string' },
        in: { type: 'string' },
        out: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const missing = ['key', 'model', 'version', 'in', 'out'].filter((name) => typeof values[name] !== 'string');
  if (missing.length > 0) {
    console.error(`Missing ${missing.map((name) => `--${name}`).join(', ')}\n${USAGE}`);
    return 2;
  }
  const [keyFile, modelId, versionText, input, output] = ['key', 'model', 'version', 'in', 'out'].map(
    (name) => values[name] as string,
  ) as [string, string, string, string, string];
  try {
    const version = parseVersion(versionText);
    let key: ReturnType<typeof createPrivateKey>;
    try {
      key = createPrivateKey(await readFile(keyFile, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code) throw error;
      throw new SignInputError(`${keyFile} is not a private key in PEM`);
    }
    const image = signImage({ key, modelId, version, payload: await readFile(input) });
    await writeFile(output, image);
    console.log(`${output}: ${modelId} ${versionText}, ${image.length} bytes, signed`);
    return 0;
  } catch (error) {
    if (error instanceof SignInputError) {
      console.error(error.message);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    console.error(code ? `${(error as NodeJS.ErrnoException).path ?? ''}: ${code}` : String(error));
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
