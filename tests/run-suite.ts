// `npm test`: every group, in two lanes side by side. The end-to-end files share one server and its
// demo data, so they run one at a time; the node and dom files beside them, on as many workers as
// the machine has cores (vitest.config.ts). In one vitest run the end-to-end files would only start
// once the others had ended. With arguments (`npm test -- tests/codec`), one vitest run of them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { groupTimesIn } from './reporters/group-times.ts';

const VITEST = new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname;

interface Lane {
  name: string;
  args: string[];
}

const LANES: Lane[] = [
  { name: 'e2e', args: ['--project', 'e2e'] },
  { name: 'node, dom', args: ['--project', 'node', '--project', 'dom', '--project', 'dom-alone'] },
];

/**
 * One vitest run; its lines go out marked with its lane. Answers its exit code, its seconds and
 * its time by group.
 */
function runLane(lane: Lane, label: string): Promise<{ code: number; seconds: number; groups: string[] }> {
  const started = performance.now();
  const child = spawn(process.execPath, [VITEST, 'run', ...lane.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Colours as the terminal would show them, though the lane writes to a pipe.
    env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
  });
  running.add(child);
  const output: string[] = [];
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      to.write(`${label} │ ${line}\n`);
      if (from === child.stdout) output.push(line);
    });
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({
        code: code ?? (signal ? 1 : 0),
        seconds: (performance.now() - started) / 1000,
        groups: groupTimesIn(output),
      });
    });
  });
}

const running = new Set<ReturnType<typeof spawn>>();
// A stopped run stops its lanes (Ctrl-C reaches them from the terminal itself).
for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exitCode = 1;
  });
}

const args = process.argv.slice(2);
if (args.length > 0) {
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { stdio: 'inherit' });
  running.add(child);
  child.on('close', (code) => {
    process.exitCode = code ?? 1;
  });
} else {
  const started = performance.now();
  const width = Math.max(...LANES.map((lane) => lane.name.length));
  const results = await Promise.all(LANES.map((lane) => runLane(lane, lane.name.padEnd(width))));
  const wall = (performance.now() - started) / 1000;
  // Each lane printed its own amid the other's lines: together here, at the end.
  console.log('\nTime by group:');
  for (const line of results.flatMap((result) => result.groups)) console.log(`  ${line}`);
  console.log('Time by lane (the lanes ran side by side):');
  LANES.forEach((lane, index) => {
    const result = results[index];
    if (!result) return;
    const outcome = result.code === 0 ? 'passed' : `failed (exit ${result.code})`;
    console.log(`  ${lane.name.padEnd(width)}  ${outcome} in ${result.seconds.toFixed(1)} s`);
  });
  const failed = results.some((result) => result.code !== 0);
  console.log(`Every group ${failed ? 'ran; some failed,' : 'passed,'} in ${wall.toFixed(1)} s.`);
  process.exitCode = failed ? 1 : 0;
}
