/**
 * Where a simulated device keeps its written configuration: raw values by item name, per serial
 * number. JSON-friendly, so that a browser can back it with localStorage.
 */
export interface ConfigStore {
  load(serialNumber: string): Record<string, number> | undefined;
  save(serialNumber: string, raw: Record<string, number>): void;
}

/** A store that lives as long as the process (or page). */
export class MemoryConfigStore implements ConfigStore {
  private readonly saved = new Map<string, Record<string, number>>();

  load(serialNumber: string): Record<string, number> | undefined {
    const raw = this.saved.get(serialNumber);
    return raw ? { ...raw } : undefined;
  }

  save(serialNumber: string, raw: Record<string, number>): void {
    this.saved.set(serialNumber, { ...raw });
  }
}

/** The part of the Web Storage API a {@link StorageConfigStore} needs. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** A store on `localStorage` (or any Web Storage), one key per serial number. */
export class StorageConfigStore implements ConfigStore {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly prefix = 'device-sim:',
  ) {}

  load(serialNumber: string): Record<string, number> | undefined {
    const text = this.storage.getItem(this.prefix + serialNumber);
    if (text === null) return undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object') return undefined;
      const entries = Object.entries(parsed).filter((e): e is [string, number] => Number.isInteger(e[1]));
      return Object.fromEntries(entries);
    } catch {
      // A damaged entry must not stop the device from starting: it falls back to its defaults.
      return undefined;
    }
  }

  save(serialNumber: string, raw: Record<string, number>): void {
    this.storage.setItem(this.prefix + serialNumber, JSON.stringify(raw));
  }
}
