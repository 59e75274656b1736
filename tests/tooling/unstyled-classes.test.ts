import { describe, expect, it } from 'vitest';
import { unstyledMantineClasses } from '../../src/prerender/unstyled-classes.ts';

describe('unstyledMantineClasses', () => {
  it("names the Mantine classes of a page's markup that its inline rules do not style", () => {
    const page = [
      '<html><head><style>.m_1b7284a3{display:block}.m_4081bf90:where([data-grow])>*{flex-grow:1}</style>',
      '<style data-mantine-styles>:root{--x:1}</style></head>',
      '<body><div class="m_1b7284a3 mantine-Paper-root"><div class="m_4081bf90">',
      '<div class="m_3eebeb36 mantine-Divider-root" data-note="m_00000000"></div></div></div></body></html>',
    ].join('');
    expect(unstyledMantineClasses(page)).toEqual(['m_3eebeb36']);
  });

  it('finds nothing to name when every class is styled, or there are none', () => {
    expect(unstyledMantineClasses('<style>.m_1b7284a3{}</style><p class="m_1b7284a3 own">x</p>')).toEqual([]);
    expect(unstyledMantineClasses('<p class="own">x</p>')).toEqual([]);
  });
});
