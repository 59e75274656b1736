import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTool, type Tool } from './find-tool.ts';

/** Debian's poppler-utils: `pdftotext` reads a PDF's text as a reader's copy-and-paste would. */
export const PDFTOTEXT: Tool = {
  label: 'pdftotext',
  command: 'pdftotext',
  packages: ['poppler-utils'],
  purpose: 'the commissioning-report tests',
  pathVariable: 'PDFTOTEXT_PATH',
};

/**
 * The text of a PDF, in reading order (`pdftotext -layout`), found or installed like every tool
 * the tests need (tests/find-tool.ts).
 * @throws {ToolMissingError} when there is no pdftotext and none can be installed here.
 */
export function pdfText(pdf: Uint8Array): string {
  const binary = findTool(PDFTOTEXT);
  const folder = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    const file = join(folder, 'report.pdf');
    writeFileSync(file, pdf);
    return execFileSync(binary, ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
