import type { Page, Route } from 'playwright-core';
import type { MachineModel, ModelDriver } from '../machines/paths/model-entry.ts';
import { type DescribedPath, describePaths } from '../machines/paths/model-paths.ts';
import { appUrl } from './browser.ts';

/**
 * The model-based paths in the browser: the same abstract models as `tests/machines/`, their
 * events performed as a person (or the test device, or another tab) would in the real app
 * against the real server.
 */

/** Where an event can be performed in the browser: from these model states only. */
export type Reach = Record<string, readonly string[]>;

/**
 * The shortest paths of a model whose every step the browser can perform from where it stands
 * (`reach`: event → the model states it can be performed from).
 */
export function browserPaths(entry: MachineModel, reach: Reach): DescribedPath[] {
  return describePaths(entry).filter((path) => {
    if (path.kind !== 'shortest') return false;
    let from = path.start.state;
    for (const step of path.steps) {
      if (!reach[step.event]?.includes(from)) return false;
      from = step.state;
    }
    return true;
  });
}

/** Checks that a browser driver checks every state its paths reach. */
export function uncheckedStates(paths: DescribedPath[], driver: ModelDriver): string[] {
  const states = new Set(paths.flatMap((p) => [p.start.state, ...p.steps.map((s) => s.state)]));
  return [...states].filter((s) => !driver.states?.[s]);
}

/**
 * Requests to a path held back until the test lets them go: the server still answers them,
 * later. `continue` may change the body, as a person typing something else would have.
 */
export class HeldRequests {
  private readonly held: Route[] = [];
  private readonly waiters: Array<() => void> = [];

  static async on(page: Page, glob: string): Promise<HeldRequests> {
    const holder = new HeldRequests();
    await page.route(glob, (route) => {
      holder.held.push(route);
      for (const wake of holder.waiters.splice(0)) wake();
    });
    return holder;
  }

  get count(): number {
    return this.held.length;
  }

  /** Waits until at least `n` requests are held. */
  async atLeast(n: number): Promise<void> {
    while (this.held.length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Lets every held request go to the server, each body changed by `edit` if given. */
  async release(edit?: (body: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    for (const route of this.held.splice(0)) {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue(edit ? { postData: JSON.stringify(edit(body)) } : undefined);
    }
  }
}

/** The app's configuration, as the browser reads it. */
export async function appConfig(): Promise<{ configUrl: string; monitoringUrl: string; apiKey: string }> {
  return (await (await fetch(appUrl('/app-config.json'))).json()) as {
    configUrl: string;
    monitoringUrl: string;
    apiKey: string;
  };
}

/** POSTs JSON to one of the services, as the app does. */
export async function post(service: 'config' | 'monitoring', path: string, body: unknown): Promise<Response> {
  const config = await appConfig();
  const base = service === 'config' ? config.configUrl : config.monitoringUrl;
  return fetch(new URL(`${base}${path}`, appUrl('/')), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'api-key': config.apiKey },
    body: JSON.stringify(body),
  });
}
