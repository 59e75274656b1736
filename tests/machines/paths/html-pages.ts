import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instance } from '@viz-js/viz';
import { type Coverage, statesFigure, TARGETS, transitionsFigure } from './coverage.ts';
import { machineDot, modelDot } from './dot.ts';
import type { MachineModel } from './model-entry.ts';
import type { DescribedPath } from './model-paths.ts';

/**
 * `npm run test:paths -- --html <folder>`: a page per machine for QA (its diagrams drawn by
 * Graphviz compiled to WebAssembly, its events and states in words, its paths as numbered steps
 * with the state expected after each, and what the paths reached of the real machine), an index
 * page, and `paths.json`. Nothing is fetched: the pages hold their SVG inline.
 */

const html = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; color: #1d232b; margin: 0 auto; padding: 1.5rem; max-width: 72rem; }
  h1 { font-size: 1.6rem; margin-bottom: .25rem; }
  h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #d8dee6; padding-bottom: .25rem; }
  h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; }
  code { background: #f1f4f8; padding: 0 .25rem; border-radius: 3px; }
  table { border-collapse: collapse; margin: .5rem 0; }
  th, td { border: 1px solid #d8dee6; padding: .3rem .6rem; text-align: left; vertical-align: top; }
  th { background: #f1f4f8; }
  .diagram { overflow-x: auto; border: 1px solid #d8dee6; border-radius: 6px; padding: .5rem; background: #fff; }
  .diagram svg { max-width: 100%; height: auto; }
  ol.steps { margin: .25rem 0 1rem; }
  ol.steps li { margin: .2rem 0; }
  .expect { color: #2f5d2f; }
  .missed { color: #b3261e; }
  .ok { color: #2f5d2f; font-weight: 600; }
  .bad { color: #b3261e; font-weight: 600; }
  details { margin: .5rem 0; }
  summary { cursor: pointer; font-weight: 600; }
  @media (max-width: 40rem) { body { padding: .75rem; } th, td { padding: .2rem .3rem; } .diagram svg { max-width: none; } }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function pathHtml(p: DescribedPath): string {
  const steps = [
    `<li>Start: expect <code>${html(p.start.state)}</code> — <span class="expect">${html(p.start.expect)}</span></li>`,
    ...p.steps.map(
      (s) =>
        `<li><strong><code>${html(s.event)}</code></strong>: ${html(s.does)}<br>Then expect <code>${html(s.state)}</code> — <span class="expect">${html(s.expect)}</span></li>`,
    ),
  ];
  return `<h3 id="${p.kind}-${p.number}">${p.kind === 'shortest' ? 'Shortest' : 'Simple'} path ${p.number}: to <code>${html(p.target)}</code></h3>
<ol class="steps" start="0">${steps.join('\n')}</ol>`;
}

function coverageHtml(c: Coverage, entry: MachineModel): string {
  const missedStates = c.states.missed.map(
    (s) =>
      `<li>state <code class="missed">${html(s.label)}</code><br>Why: ${html(s.reason ?? 'no reason given')}</li>`,
  );
  const missedTransitions = c.transitions.missed.map(
    (t) =>
      `<li><code class="missed">${html(t.label)}</code><br>Why: ${html(t.reason ?? 'no reason given')}</li>`,
  );
  return `<h2>What the paths reach of the real machine</h2>
<p>Read from <code>${html(entry.source)}</code> (machine <code>${html(c.machineId)}</code>) while every path above ran against it.</p>
<table><tr><th>States</th><td>${statesFigure(c)}</td></tr>
<tr><th>Transitions</th><td>${transitionsFigure(c)}</td></tr>
<tr><th>Targets (${TARGETS.states * 100} % and ${TARGETS.transitions * 100} % of what can be reached)</th><td class="${c.meetsTargets ? 'ok' : 'bad'}">${c.meetsTargets ? 'met' : 'NOT met'}</td></tr></table>
${missedStates.length || missedTransitions.length ? `<p>Not reached:</p><ul>${[...missedStates, ...missedTransitions].join('\n')}</ul>` : '<p>Every state and transition is reached.</p>'}`;
}

function machinePage(
  entry: MachineModel,
  paths: DescribedPath[],
  coverage: Coverage,
  svgs: { model: string; machine: string },
): string {
  const rows = (record: Record<string, string>) =>
    Object.entries(record)
      .map(([k, v]) => `<tr><th scope="row"><code>${html(k)}</code></th><td>${html(v)}</td></tr>`)
      .join('\n');
  const shortest = paths.filter((p) => p.kind === 'shortest');
  const simple = paths.filter((p) => p.kind === 'simple');
  return page(
    `${entry.title}: model-based test paths`,
    `<p><a href="index.html">All machines</a></p>
<h1>${html(entry.title)}</h1>
<p>${html(entry.about)}</p>
<p>Each path starts a fresh real machine, performs its events in order, and after each one checks that the machine is in the state named (what a person would see there is written beside it).</p>
<h2>The model</h2>
<figure class="diagram" aria-label="State diagram of the model">${svgs.model}</figure>
<h2>Events</h2>
<table><tr><th>Event</th><th>What happens</th></tr>${rows(entry.events)}</table>
<h2>States</h2>
<table><tr><th>State</th><th>What must be true there</th></tr>${rows(entry.states)}</table>
<h2>Shortest paths (${shortest.length})</h2>
<p>The fewest events that reach each state of the model; where one such path is the start of another, only the longer is kept.</p>
${shortest.map(pathHtml).join('\n')}
${
  simple.length
    ? `<h2>Simple paths (${simple.length})</h2>
<details><summary>Every path that visits no state twice</summary>
${simple.map(pathHtml).join('\n')}
</details>`
    : ''
}
${coverageHtml(coverage, entry)}
<h2>The real machine</h2>
<p>Grey: reached by the paths. <span class="missed">Red and dashed: not reached.</span></p>
<figure class="diagram" aria-label="State diagram of the real machine">${svgs.machine}</figure>`,
  );
}

function indexPage(
  items: Array<{ entry: MachineModel; paths: DescribedPath[]; coverage: Coverage }>,
): string {
  const rows = items.map(
    ({ entry, paths, coverage }) =>
      `<tr><td><a href="${entry.name}.html">${html(entry.title)}</a></td><td><code>${html(entry.source)}</code></td>
<td>${paths.filter((p) => p.kind === 'shortest').length}</td><td>${paths.filter((p) => p.kind === 'simple').length}</td>
<td>${statesFigure(coverage)}</td><td>${transitionsFigure(coverage)}</td>
<td class="${coverage.meetsTargets ? 'ok' : 'bad'}">${coverage.meetsTargets ? 'yes' : 'NO'}</td></tr>`,
  );
  return page(
    'Model-based test paths',
    `<h1>Model-based test paths</h1>
<p>Each machine below has an abstract model; every path through the model is run against the real machine by the tests. A page per machine shows the model, its events and states in words, its paths step by step, and what the paths reach of the real machine. The same paths are in <a href="paths.json">paths.json</a>.</p>
<table><tr><th>Machine</th><th>Source</th><th>Shortest paths</th><th>Simple paths</th><th>States reached</th><th>Transitions reached</th><th>Targets met</th></tr>
${rows.join('\n')}</table>`,
  );
}

/** Draws a Graphviz source as an SVG element to put in a page. */
async function svgOf(dot: string): Promise<string> {
  const viz = await instance();
  const result = viz.render(dot, { format: 'svg' });
  if (result.status !== 'success') {
    throw new Error(`Graphviz could not draw a diagram: ${result.errors.map((e) => e.message).join('; ')}`);
  }
  return result.output.slice(result.output.indexOf('<svg'));
}

/** Writes the pages; answers the names of the files written. */
export async function writeHtml(
  folder: string,
  models: Array<{ entry: MachineModel; paths: DescribedPath[] }>,
  coverages: Coverage[],
  toJson: (p: DescribedPath) => unknown,
): Promise<string[]> {
  mkdirSync(folder, { recursive: true });
  const items = models.map(({ entry, paths }) => {
    const coverage = coverages.find((c) => c.name === entry.name);
    if (!coverage) throw new Error(`no coverage for ${entry.name}`);
    return { entry, paths, coverage };
  });
  const written: string[] = [];
  for (const { entry, paths, coverage } of items) {
    const svgs = {
      model: await svgOf(modelDot(entry.model)),
      machine: await svgOf(machineDot(entry.machine)),
    };
    const file = `${entry.name}.html`;
    writeFileSync(join(folder, file), machinePage(entry, paths, coverage, svgs));
    written.push(file);
  }
  writeFileSync(join(folder, 'index.html'), indexPage(items));
  writeFileSync(
    join(folder, 'paths.json'),
    `${JSON.stringify(
      models.flatMap((m) => m.paths.map(toJson)),
      null,
      2,
    )}\n`,
  );
  written.push('index.html', 'paths.json');
  return written;
}
