import { MANTINE_CLASS } from './used-mantine-rules.ts';

/**
 * The Mantine classes a prerendered page's markup uses that none of its inline rules style: a
 * component whose stylesheet the page's own sheets lack (the first screen loads only the parts of
 * Mantine it lists in `mantine-first-screen.css`), which would show unstyled until the app loads
 * more. The build fails on any.
 *
 * @example unstyledMantineClasses('<style>.m_1b7284a3{}</style><div class="m_1b7284a3 m_3eebeb36">') // ['m_3eebeb36']
 */
export function unstyledMantineClasses(html: string): string[] {
  const inline = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('\n');
  const markup = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
  const used = new Set(
    [...markup.matchAll(/\bclass="([^"]*)"/g)].flatMap((match) => match[1]?.match(MANTINE_CLASS) ?? []),
  );
  const styled = new Set(inline.match(MANTINE_CLASS) ?? []);
  return [...used].filter((name) => !styled.has(name)).sort();
}
