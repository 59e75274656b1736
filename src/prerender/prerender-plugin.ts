// The build step that writes the prerendered pages (contracts/prerendered-pages.ts). Runs in Node,
// inside `vite build`; never part of the app the browser loads.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { build as esbuild } from 'esbuild';
import { build, type Plugin, type PluginOption, type ResolvedConfig, type Rollup } from 'vite';
import { dropRepeatedRules } from './drop-repeated-rules.ts';
import type { RenderedPage } from './render-pages.tsx';
import { unstyledMantineClasses } from './unstyled-classes.ts';

/**
 * The route files whose code each page shows: their stylesheets are linked in the page (so it is
 * styled before any script runs, and nothing moves when the script arrives) and their chunks
 * preloaded. A page missing here, or a file no chunk holds, fails the build.
 */
const PAGE_ROUTE_FILES: Record<string, string[]> = {
  'login.html': ['src/routes/login.tsx'],
  'sunspec-config.html': ['src/routes/sunspec-config.tsx'],
  'device-details-old.html': ['src/routes/device-details-old.$deviceid.tsx'],
  'index.html': ['src/routes/_shell.tsx'],
};

/** What `index.html` holds inside `#root` until the app starts; the pages replace it. */
const ROOT_PLACEHOLDER = /<div id="root">[\s\S]*?<\/div>/;
/**
 * The guard goes right after the charset, so it is fetched first. It is `async`: it holds nothing
 * up, and the sign-in form is safe without it (`method="dialog"`); it only keeps a press made
 * before the app runs, for the app to make again.
 */
const CHARSET = /<meta charset="[^"]*"\s*\/?>/;
/**
 * The element right after `#root` in `index.html`. Until the parser has read it, the page is not
 * drawn (`<link rel="expect" blocking="render">`): the prerendered markup appears in one frame
 * instead of a first frame holding only its top, which a slow phone's parser would otherwise
 * paint when it pauses half-way (measured on the SunSpec page: the header first, the rest 0.3 s
 * later, which made that later paint the page's largest). Browsers without it ignore the link.
 */
const AFTER_ROOT = 'app-status';
const RENDER_ENTRY = 'src/prerender/render-pages.tsx';
const BEFORE_APP_ENTRY = 'src/prerender/before-app.ts';

export interface PrerenderOptions {
  /** The plugins the app is built with (the router's code splitting, React), to render it alike. */
  plugins: () => PluginOption[];
}

/**
 * Bundles `render-pages.tsx` for Node with the app's own plugins, so route code is split exactly
 * as in the browser, and with the router's browser build, so it renders the markup the browser's
 * first render makes (with its Suspense boundaries) rather than its server markup.
 */
async function bundleRenderer(root: string, mode: string, plugins: PluginOption[]): Promise<string> {
  // A folder per build, imported without a query: the route chunks import the entry by its plain
  // path, and an entry imported as `entry.js?t=…` would be a second copy of it (two React
  // contexts, so a route chunk's view would find no provider).
  const parent = join(root, 'node_modules/.fleet-prerender');
  rmSync(parent, { recursive: true, force: true });
  const outDir = join(parent, String(Date.now()));
  const output = await build({
    configFile: false,
    root,
    mode,
    logLevel: 'warn',
    plugins,
    resolve: {
      alias: [
        {
          find: /^@tanstack\/router-core\/isServer$/,
          replacement: join(root, 'node_modules/@tanstack/router-core/dist/esm/isServer/client.js'),
        },
      ],
    },
    // Bundled rather than imported from node_modules, so that the alias above applies inside them.
    ssr: { noExternal: [/^@tanstack\//] },
    build: {
      ssr: RENDER_ENTRY,
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: false,
      sourcemap: false,
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rollup.RollupOutput[];
  const entry = outputs.flatMap((o) => o.output).find((file) => file.type === 'chunk' && file.isEntry);
  if (!entry) throw new Error(`Prerendering: bundling ${RENDER_ENTRY} gave no entry`);
  return join(outDir, entry.fileName);
}

/** The guard a page loads before its markup (see before-app.ts), as a content-hashed classic script. */
async function writeBeforeApp(root: string, outDir: string, assetsDir: string): Promise<string> {
  const result = await esbuild({
    entryPoints: [join(root, BEFORE_APP_ENTRY)],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    write: false,
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`Prerendering: ${BEFORE_APP_ENTRY} gave no script`);
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
  const file = `${assetsDir}/before-app-${hash}.js`;
  writeFileSync(join(outDir, file), code);
  return `/${file}`;
}

/** The chunks holding a route file's code (the route module and its split parts). */
function chunksOf(bundle: Rollup.OutputBundle, root: string, routeFile: string): Rollup.OutputChunk[] {
  const path = join(root, routeFile);
  const chunks = Object.values(bundle).filter(
    (file): file is Rollup.OutputChunk =>
      file.type === 'chunk' && file.moduleIds.some((id) => id === path || id.startsWith(`${path}?`)),
  );
  if (chunks.length === 0) throw new Error(`Prerendering: no chunk of the build holds ${routeFile}`);
  return chunks;
}

/** The scripts and stylesheets a page's routes load: their chunks, static imports included. */
function assetsOf(bundle: Rollup.OutputBundle, root: string, routeFiles: string[]) {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || scripts.has(chunk.fileName)) return;
    scripts.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
    for (const next of chunk.imports) {
      const imported = bundle[next];
      visit(imported?.type === 'chunk' ? imported : undefined);
    }
  };
  for (const file of routeFiles) for (const chunk of chunksOf(bundle, root, file)) visit(chunk);
  return { scripts, styles };
}

/** `index.html` with the page's markup in `#root` and what it needs in the head. */
function composePage(
  template: string,
  page: RenderedPage,
  assets: { scripts: Set<string>; styles: Set<string> },
  beforeApp: string,
): string {
  if (!ROOT_PLACEHOLDER.test(template)) throw new Error('Prerendering: index.html has no <div id="root">');
  if (!CHARSET.test(template)) throw new Error('Prerendering: index.html has no <meta charset>');
  if (!new RegExp(`</div>\\s*<div id="${AFTER_ROOT}">`).test(template)) {
    throw new Error(`Prerendering: index.html has no <div id="${AFTER_ROOT}"> right after #root`);
  }
  const has = (file: string) => template.includes(`/${file}"`);
  const head = [
    ...[...assets.styles]
      .filter((f) => !has(f))
      .map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
    ...[...assets.scripts]
      .filter((f) => !has(f))
      // Low priority, as in the template (vite.config.ts): the page paints without them.
      .map((f) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${f}">`),
  ];
  const marker = page.routeId ? ` data-prerendered-route="${page.routeId}"` : '';
  return template
    .replace(
      CHARSET,
      (charset) =>
        `${charset}\n    <link rel="expect" href="#${AFTER_ROOT}" blocking="render">\n    <script async src="${beforeApp}"></script>`,
    )
    .replace('</head>', `  ${head.join('\n    ')}\n  </head>`)
    .replace(ROOT_PLACEHOLDER, () => `<div id="root"${marker}>${page.html}</div>`);
}

/** Stylesheets of a page's routes at most this big are written into the page whole too. */
const INLINE_WHOLE_MAX_BYTES = 16 * 1024;

/** A stylesheet's rules, to be written into the page whole. */
function wholeSheet(outDir: string, file: string): string {
  const css = readFileSync(join(outDir, file), 'utf8');
  return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
}

/**
 * A disabled link for each sheet written into the page: never fetched nor applied, it tells
 * Vite's chunk loader (which looks for a stylesheet link with the file's address) that the sheet
 * is on the page, so a route sharing its rules does not load it again (later, over the rules
 * that came after it). Added after Beasties, which would otherwise inline their rules a second
 * time.
 */
function markInlined(html: string, files: Set<string>): string {
  const links = [...files].map((file) => `<link rel="stylesheet" href="/${file}" disabled>`);
  return html.replace('</head>', () => `${links.join('')}</head>`);
}

/**
 * Writes into the page whole the entry's stylesheets (the first screen's Mantine parts and the
 * app's own rules, linked by Vite's `index.html`) and the small sheets of its routes: the page
 * parses them once, with the markup, instead of taking a subset inline and then, when the app
 * starts, parsing each sheet again and restyling every element with it (about a quarter of the
 * sign-in page's blocking time on a slow phone, and 0.2 s of a warm start). Larger sheets
 * (Mantine's whole sheet) stay links, their markup's rules inlined by Beasties.
 */
function inlineWholeStylesheets(
  template: string,
  styles: Set<string>,
  outDir: string,
): { html: string; styles: Set<string>; inlined: Set<string> } {
  const inlined = new Set<string>();
  let html = template.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g,
    (_, file: string) => {
      inlined.add(file);
      return wholeSheet(outDir, file);
    },
  );
  const small = [...styles].filter(
    (file) => !inlined.has(file) && statSync(join(outDir, file)).size <= INLINE_WHOLE_MAX_BYTES,
  );
  html = html.replace('</head>', () => `${small.map((file) => wholeSheet(outDir, file)).join('')}</head>`);
  const rest = new Set([...styles].filter((file) => !inlined.has(file) && !small.includes(file)));
  for (const file of small) inlined.add(file);
  return { html, styles: rest, inlined };
}

/**
 * The page's own stylesheets become preloads, which the app applies when it starts
 * (`applyPreloadedStylesheets`). Its markup's rules are inline; a stylesheet left in the markup,
 * even at the end, would hold up the app's scripts until it arrived, as the browser runs no
 * script before the stylesheets parsed ahead of it.
 */
function deferStylesheets(html: string): string {
  return html.replace(
    /<link rel="stylesheet"( crossorigin)? href="([^"]+)">/g,
    (_, crossorigin = '', href) => {
      return `<link rel="preload" as="style"${crossorigin} href="${href}">`;
    },
  );
}

/**
 * The page with each rule of its inlined critical sheet once: the rules come from several of the
 * page's stylesheets, which repeat Mantine's global ones (see drop-repeated-rules.ts). Mantine's
 * own `<style data-mantine-styles>` elements in the markup are left as React renders them.
 */
function inlineOnce(html: string): string {
  return html.replace(
    /<style>([\s\S]*?)<\/style>/g,
    (_, css: string) => `<style>${dropRepeatedRules(css)}</style>`,
  );
}

/**
 * After the app's files are written (and before the service worker lists them), renders the pages
 * of `PRERENDERED_PAGES` and the shell with React's static rendering and writes them beside
 * `index.html`, which becomes the shell.
 */
export function prerenderPages(options: PrerenderOptions): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'fleet:prerender',
    apply: (userConfig, env) => env.command === 'build' && !userConfig.build?.ssr,
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      async handler(output, bundle) {
        const outDir = output.dir ?? config.build.outDir;
        const template = bundle['index.html'];
        if (template?.type !== 'asset') throw new Error('Prerendering: the build wrote no index.html');
        const renderer = await bundleRenderer(config.root, config.mode, options.plugins());
        try {
          const { renderPages } = (await import(pathToFileURL(renderer).href)) as {
            renderPages: () => Promise<RenderedPage[]>;
          };
          const beforeApp = await writeBeforeApp(config.root, outDir, config.build.assetsDir);
          // The rules the page's markup uses go into the page itself, so it paints as soon as it
          // arrives; its stylesheets still load, from the end of the body, where they hold up
          // nothing (and the rules for what the app renders later are there in time).
          const critical = new Beasties({
            path: outDir,
            publicPath: '/',
            preload: 'body',
            pruneSource: false,
            // Mantine's own <style> elements in the markup stay whole: the app renders them again.
            reduceInlineStyles: false,
            keyframes: 'critical',
            // The theme's variables hang on <html>'s colour scheme, which its matcher does not see.
            allowRules: [/^:root\[/],
            logLevel: 'warn',
          });
          for (const page of await renderPages()) {
            const routeFiles = PAGE_ROUTE_FILES[page.file];
            if (!routeFiles) throw new Error(`Prerendering: PAGE_ROUTE_FILES does not list ${page.file}`);
            const assets = assetsOf(bundle, config.root, routeFiles);
            const whole = inlineWholeStylesheets(String(template.source), assets.styles, outDir);
            const html = composePage(whole.html, page, { ...assets, styles: whole.styles }, beforeApp);
            const styled = markInlined(
              deferStylesheets(
                inlineOnce((await critical.process(html)).replace(' data-beasties-container', '')),
              ),
              whole.inlined,
            );
            const unstyled = unstyledMantineClasses(styled);
            if (unstyled.length > 0) {
              throw new Error(
                `Prerendering: ${page.file} uses Mantine classes no stylesheet of the page styles (${unstyled.join(', ')}): add the component's file to src/styles/mantine-first-screen.css`,
              );
            }
            writeFileSync(join(outDir, page.file), styled);
          }
        } finally {
          const folder = join(renderer, '..');
          if (existsSync(folder)) rmSync(folder, { recursive: true, force: true });
        }
      },
    },
  };
}
