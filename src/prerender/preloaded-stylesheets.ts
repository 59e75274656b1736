/**
 * Applies the stylesheets a prerendered page only preloads (its markup's own rules are inline in
 * the page; see `deferStylesheets` in prerender-plugin.ts): added by a script, they hold up no
 * script, and the app's later screens find their rules in place. Vite, loading a chunk's
 * stylesheet, finds these and does not load them again.
 */
export function applyPreloadedStylesheets(document: Document): void {
  for (const preload of document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]')) {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = preload.href;
    if (preload.crossOrigin !== null) sheet.crossOrigin = preload.crossOrigin;
    document.head.append(sheet);
  }
}
