import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classesOfCoreExports,
  classesTheAppCanSet,
  keepUsedMantineRules,
  MANTINE_CLASS,
  namesImportedFromCore,
} from '../../src/prerender/used-mantine-rules.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const MANTINE = join(ROOT, 'node_modules/@mantine');
const CORE_ESM = join(MANTINE, 'core/esm');
const classesIn = (file: string) => new Set(readFileSync(join(CORE_ESM, file), 'utf8').match(MANTINE_CLASS));

describe('namesImportedFromCore', () => {
  it('reads named imports over several lines, renamed ones by their own name, and leaves types out', () => {
    const source = [
      "import { Button, type ButtonProps } from '@mantine/core';",
      'import {',
      '  Select as Choice,',
      '  Stack,',
      '} from "@mantine/core";',
      "import { useDisclosure } from '@mantine/hooks';",
      "import type { MantineTheme } from '@mantine/core';",
    ].join('\n');
    expect(namesImportedFromCore(source)).toEqual(['Button', 'Select', 'Stack']);
  });
});

describe('keepUsedMantineRules', () => {
  const used = new Set(['m_00000001']);

  it('drops the selectors naming a class no code sets, and rules left with none', () => {
    expect(keepUsedMantineRules('.m_00000001{a:1}.m_00000002{b:2}', used)).toBe('.m_00000001{a:1}');
    expect(keepUsedMantineRules('.m_00000002,.m_00000001:hover{a:1}', used)).toBe('.m_00000001:hover{a:1}');
    // One unset class is enough: no element can match.
    expect(keepUsedMantineRules('.m_00000001 .m_00000002{a:1}', used)).toBe('');
  });

  it('keeps the rules naming no Mantine class, and removes at-rules left empty, nested too', () => {
    const css = ':root{--x:1}@layer mantine{@media (min-width:1px){.m_00000002{a:1}}body{b:2}}';
    expect(keepUsedMantineRules(css, used)).toBe(':root{--x:1}@layer mantine{body{b:2}}');
    expect(keepUsedMantineRules('@layer mantine{@media (x){.m_00000002{a:1}}}', used)).toBe('');
    // An at-rule without a block (an import, a layer order) is not an empty one.
    expect(keepUsedMantineRules('@layer mantine, app;', used)).toBe('@layer mantine, app;');
  });
});

describe('classesOfCoreExports', () => {
  it("follows an export through Mantine's modules: Button has its own classes and UnstyledButton's", () => {
    const classes = classesOfCoreExports(CORE_ESM, ['Button']);
    for (const name of classesIn('components/Button/Button.module.mjs')) expect(classes).toContain(name);
    for (const name of classesIn('components/UnstyledButton/UnstyledButton.module.mjs'))
      expect(classes).toContain(name);
    expect(classes).not.toContain([...classesIn('components/Slider/Slider.module.mjs')][0]);
  });

  it('takes an export Mantine re-exports from another package as having no classes, and refuses an unknown one', () => {
    expect(classesOfCoreExports(CORE_ESM, ['RemoveScroll']).size).toBe(0);
    expect(() => classesOfCoreExports(CORE_ESM, ['NoSuchComponent'])).toThrow(/no export "NoSuchComponent"/);
  });
});

describe('classesTheAppCanSet', () => {
  it("holds what the app's screens use and what the notifications package builds on, not the unused", () => {
    const classes = classesTheAppCanSet(join(ROOT, 'src'), MANTINE);
    for (const file of [
      // Select has no sheet of its own: it is an input with Combobox's dropdown.
      'components/Input/Input.module.mjs',
      'components/Combobox/Combobox.module.mjs',
      'components/Notification/Notification.module.mjs',
    ]) {
      for (const name of classesIn(file)) expect(classes).toContain(name);
    }
    expect(classes).not.toContain([...classesIn('components/Slider/Slider.module.mjs')][0]);
  });
});
