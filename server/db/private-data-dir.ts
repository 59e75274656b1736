import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Make the data folder private to the server's user: the folder and every folder in it 0700,
 * every file 0600 (the database and the signing keys live there). Creates the folder when missing;
 * tightens an existing one left with wider modes. Symbolic links are left alone.
 * @example makeDataDirPrivate('./data')
 */
export function makeDataDirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
}

function tighten(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) tighten(join(path, name));
  } else if ((stat.mode & 0o777) !== 0o600) {
    chmodSync(path, 0o600);
  }
}
