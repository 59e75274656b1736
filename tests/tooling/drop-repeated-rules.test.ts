import { describe, expect, it } from 'vitest';
import { dropRepeatedRules } from '../../src/prerender/drop-repeated-rules.ts';

describe('dropRepeatedRules', () => {
  it('keeps the later copy of a rule repeated in the same layer, and every rule that differs', () => {
    const css =
      '@layer mantine{:root{--a:1}.x{color:red}}.y{color:blue}@layer mantine{:root{--a:1}.x{color:red}.z{margin:0}}';
    expect(dropRepeatedRules(css)).toBe(
      '.y{color:blue}@layer mantine{:root{--a:1}.x{color:red}.z{margin:0}}',
    );
  });

  it('keeps a rule whose copy sits in other at-rules, or differs in one declaration', () => {
    const css = '.x{color:red}@media (min-width:40em){.x{color:red}}@layer a{.x{color:red}}.x{color:green}';
    expect(dropRepeatedRules(css)).toBe(css);
  });

  it('leaves what applies unchanged when a rule between the copies overrides the first', () => {
    // .x (first) loses to .w, and .x (second) wins over .w: without the first copy it still does.
    const css = '.x{color:red}.w{color:blue}.x{color:red}';
    expect(dropRepeatedRules(css)).toBe('.w{color:blue}.x{color:red}');
  });

  it('treats a keyframes block as one unit, and drops an earlier identical one', () => {
    const css =
      '@keyframes spin{0%{opacity:0}to{opacity:1}}@keyframes fade{0%{opacity:0}}@keyframes spin{0%{opacity:0}to{opacity:1}}';
    expect(dropRepeatedRules(css)).toBe(
      '@keyframes fade{0%{opacity:0}}@keyframes spin{0%{opacity:0}to{opacity:1}}',
    );
  });
});
