import { readFileSync } from 'node:fs';

/** tests/vectors/firmware.json (written by generate-firmware.ts). */
export const firmwareVectors = JSON.parse(
  readFileSync(new URL('./firmware.json', import.meta.url), 'utf8'),
) as {
  sha256: { name: string; input: string; repeat: number; digest: string }[];
  images: {
    valid: { name: string; image: string; modelId: string; version: string; sha256: string }[];
    rejected: { name: string; image: string; error: string }[];
  };
};
