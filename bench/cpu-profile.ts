// A CPU profile of another Node process over a chosen window, through its inspector: the process
// is started with `--inspect=127.0.0.1:0`, this connects to the address it prints, and starts and
// stops V8's sampling profiler when asked, so the profile covers the measured window only (not the
// start-up or the devices connecting). The summary says where the process's time went.
import { writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import WebSocket from 'ws';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** V8's `.cpuprofile` format (what Chrome's DevTools open). */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The inspector address a process started with `--inspect=…:0` prints on stderr. */
export function inspectorUrl(stderr: Readable): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(text);
      if (!match?.[1]) return;
      stderr.off('data', read);
      resolve(match[1]);
    };
    stderr.on('data', read);
  });
}

/** A connection to a process's inspector that profiles it on demand. */
export class RemoteProfiler {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { id?: number; result?: unknown };
      if (message.id === undefined) return;
      this.waiting.get(message.id)?.(message.result);
      this.waiting.delete(message.id);
    });
  }

  static async connect(url: string): Promise<RemoteProfiler> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const profiler = new RemoteProfiler(socket);
    await profiler.call('Profiler.enable');
    // One sample a millisecond: enough resolution, little cost to the profiled process.
    await profiler.call('Profiler.setSamplingInterval', { interval: 1000 });
    return profiler;
  }

  private call(method: string, params: object = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async start(): Promise<void> {
    await this.call('Profiler.start');
  }

  async stop(): Promise<CpuProfile> {
    const result = (await this.call('Profiler.stop')) as { profile: CpuProfile };
    return result.profile;
  }

  close(): void {
    this.socket.close();
  }
}

/** Where a function's code lives, in a few words: our code by file, libraries by package. */
function areaOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(V8 built-ins and native)';
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 14).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const ours = /\/(server|src|contracts)\/(.*)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

/**
 * The profile as text: samples by area (package or file) and the functions with the most time
 * of their own, both as shares of all samples that were not idle; plus the inclusive share of
 * the functions named in `inclusive` (time in them and what they call).
 */
export function summariseProfile(profile: CpuProfile, inclusive: readonly string[] = [], top = 30): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  const within = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += ms;
      return;
    }
    busy += ms;
    const label = `${functionName || '(anonymous)'} ${areaOf(url, functionName)}:${lineNumber + 1}`;
    self.set(label, (self.get(label) ?? 0) + ms);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)?.callFrame.functionName ?? '';
      if (inclusive.includes(name) && !seen.has(name)) {
        seen.add(name);
        within.set(name, (within.get(name) ?? 0) + ms);
      }
    }
  });
  const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)} %`;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = [
    `profile: ${(busy / 1000).toFixed(1)} s busy, ${(idle / 1000).toFixed(1)} s idle ("(program)": native work outside JavaScript; "(garbage collector)": GC)`,
    'by area (own time):',
    ...sorted(areas).map(([name, ms]) => `  ${pct(ms)}  ${name}`),
    'by function (own time):',
    ...sorted(self).map(([name, ms]) => `  ${pct(ms)}  ${name}`),
  ];
  if (inclusive.length > 0)
    lines.push(
      'inclusive (the function and what it calls):',
      ...inclusive.map((name) => `  ${pct(within.get(name) ?? 0)}  ${name}`),
    );
  return lines.join('\n');
}

/** Write the profile where DevTools can open it, and answer its summary. */
export function saveProfile(profile: CpuProfile, file: string, inclusive: readonly string[] = []): string {
  writeFileSync(file, JSON.stringify(profile));
  return summariseProfile(profile, inclusive);
}
