import type { DeviceEntry } from '../../contracts/catalogue.ts';
import { scaleRaw, unscale } from '../codec/scale.ts';
import { type Codec, CodecError } from '../codec/types.ts';
import type { DeviceConfig } from '../device-config/config-schema.ts';
import { buildConfigFrame, decodeConfiguration, defaultRawValues } from '../device-config/decode-values.ts';
import { fieldRange } from '../device-config/field-range.ts';
import { devicePasswordCodes } from '../device-config/password.ts';
import {
  ANSWER_FLAG,
  answerOpcode,
  COMMAND_DONE,
  ERROR_CODE,
  ERROR_OPCODE,
  OPCODE,
  PASSWORD_RESULT,
  type Provisioning,
  readProvisioning,
} from '../device-protocol/protocol.ts';
import { type ConfigStore, MemoryConfigStore } from './config-store.ts';
import type { DemoPlace, DemoSiteState } from './day-curve.ts';
import { profileValues } from './demo-profiles.ts';
import { liveRaw, rssiAt } from './live-values.ts';

export interface SimulatedDeviceOptions {
  codec: Codec;
  /** The device's entry in the catalogue: frame size and the commands it answers. */
  entry: DeviceEntry;
  /** The loaded `{product}-to-form.json`. */
  config: DeviceConfig;
  serialNumber: string;
  /** Keeps written configuration; defaults to memory. */
  store?: ConfigStore;
  /** Clock in milliseconds; live values and RSSI are functions of it. Defaults to Date.now. */
  now?: () => number;
  /**
   * Where the device is installed and since when: its sun, its grid, its counters. Left out, it is
   * at the longitude of its clock's time zone, its counters from 2020.
   */
  place?: DemoPlace;
  /**
   * Called when the device is given a secret and an address (`Provision`): a device online
   * connects to the service with them (`connectWhenProvisioned`).
   */
  onProvisioned?: (provisioning: Provisioning) => void;
}

/** A setting the device checks on write: its raw item and the raw bounds of its form field. */
interface LimitedSetting {
  name: string;
  position: number;
  min: number;
  max: number;
}

/**
 * The form limits of every active field that writes one raw item, in raw units (the form's bounds
 * divided by the multiplier), so that the device refuses what the form would refuse.
 */
function settingLimits(config: DeviceConfig): LimitedSetting[] {
  const items = new Map(config.rawData.map((item) => [item.name, item]));
  return config.formData.flatMap((group) =>
    group.dataObjs.flatMap((obj) => {
      const item = items.get(obj.dataId);
      if (!item || item.readOnly || !obj.active) return [];
      const range = fieldRange(item.buffer);
      // A tolerance of half a raw step: 58.4 / 0.01 is 5839.999… in binary floating point.
      const min = obj.min === undefined ? range.min : Math.ceil(obj.min / item.multiplier - 0.5);
      const max = obj.max === undefined ? range.max : Math.floor(obj.max / item.multiplier + 0.5);
      return [{ name: item.name, position: item.buffer.position, min, max }];
    }),
  );
}

/** What a catalogue command did, in order, for tests and the remote debugger. */
export interface CommandRecord {
  name: string;
  opCode: number;
  at: number;
}

/**
 * The stored settings that still fit their fields. A value from an older catalogue or a damaged entry
 * would make every answer fail to encode, so it falls back to the item's default instead.
 */
function usableSettings(config: DeviceConfig, stored: Readonly<Record<string, number>> = {}) {
  const settings = defaultRawValues(config);
  for (const item of config.rawData) {
    const value = stored[item.name];
    const { min, max } = fieldRange(item.buffer);
    if (!item.readOnly && Number.isInteger(value) && (value as number) >= min && (value as number) <= max)
      settings[item.name] = value as number;
  }
  return settings;
}

/**
 * The device side of the protocol: write a command frame, then read the answer from the same
 * characteristic. Holds the configuration, answers reads with live values of the moment, rejects a
 * bad CRC or length with an error answer that changes nothing, and persists what is written.
 */
export class SimulatedDevice {
  readonly serialNumber: string;
  readonly commandLog: CommandRecord[] = [];
  private readonly codec: Codec;
  private readonly entry: DeviceEntry;
  private readonly config: DeviceConfig;
  private readonly store: ConfigStore;
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly place: DemoPlace | undefined;
  /**
   * Changes to the installation's state from now on (a battery left nearly empty): every value that
   * follows from it follows. Empty: the day as it comes.
   */
  adjust: Partial<DemoSiteState> = {};
  private settings: Record<string, number>;
  private counterOffsets: Record<string, number> = {};
  private answer: Uint8Array | undefined;
  private readonly limits: LimitedSetting[];
  /** A correct `Check password` was received in the current connection. */
  private unlocked = false;
  /** The secret and address it was given last (`Provision`); null before. */
  private given: Provisioning | null = null;
  private readonly onProvisioned: ((provisioning: Provisioning) => void) | undefined;

  constructor(options: SimulatedDeviceOptions) {
    this.codec = options.codec;
    this.entry = options.entry;
    this.config = options.config;
    this.serialNumber = options.serialNumber;
    this.store = options.store ?? new MemoryConfigStore();
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.place = options.place;
    this.settings = usableSettings(this.config, this.store.load(this.serialNumber));
    this.limits = settingLimits(this.config);
    this.onProvisioned = options.onProvisioned;
  }

  /** The secret and address it was given last, or null. */
  get provisioning(): Provisioning | null {
    return this.given;
  }

  /**
   * A new connection starts locked: writes and catalogue commands need a correct `Check password`
   * first. Transports call this when a central connects.
   */
  connect(): void {
    this.unlocked = false;
    this.answer = undefined;
  }

  /** The central went away: the next connection has to give the password again. */
  disconnect(): void {
    this.unlocked = false;
  }

  /** Whether writes are accepted in this connection (tests and the remote debugger). */
  get isUnlocked(): boolean {
    return this.unlocked;
  }

  get bufferSize(): number {
    return this.entry.write.bufferSize;
  }

  /** Takes a command frame; its answer is then available from {@link read}. */
  write(frame: Uint8Array): void {
    this.answer = this.handle(frame);
  }

  /** The answer to the last command (a `noCommand` error answer before any). */
  read(): Uint8Array {
    return (this.answer ?? this.errorAnswer(ERROR_CODE.noCommand, 0)).slice();
  }

  /** write + read in one call. */
  request(frame: Uint8Array): Uint8Array {
    this.write(frame);
    return this.read();
  }

  /** Received signal strength in dBm (always negative). */
  rssi(): number {
    return rssiAt(this.serialNumber, this.now());
  }

  /** Raw values as they are now: stored settings plus live measurements. */
  currentRaw(): Record<string, number> {
    const raw = this.measuredRaw(this.now());
    for (const [name, offset] of Object.entries(this.counterOffsets)) raw[name] = (raw[name] ?? 0) - offset;
    return raw;
  }

  /**
   * The `Read live values` answer of this moment (`0x83`, the telemetry a device sends online),
   * without changing what {@link read} answers.
   */
  liveValuesFrame(): Uint8Array {
    return this.configAnswer(OPCODE.readLiveValues);
  }

  /**
   * A `Read live values` answer taken earlier ({@link liveValuesFrame}), its values kept and its
   * time item set to `t` (epoch ms), sealed again: what a load test's devices send between real
   * samples, since sampling every live value costs milliseconds a frame.
   */
  restampedFrame(frame: Uint8Array, t: number): Uint8Array {
    const copy = frame.slice();
    const timeItem = this.config.monitoring?.timeItem;
    const item = timeItem ? this.config.rawData.find((i) => i.name === timeItem) : undefined;
    if (item) this.codec.writeField(this.codec.dataView(copy), item.buffer, Math.floor(t / 1000));
    this.codec.sealFrame(copy);
    return copy;
  }

  /**
   * Settings plus the live values at `t`, before any counter reset: each item swings around its
   * default, then the product's day profile sets its powers, charge and energy, and the time item
   * holds the clock in seconds.
   */
  private measuredRaw(t: number): Record<string, number> {
    const raw = { ...this.settings };
    const items = new Map(this.config.rawData.map((item) => [item.name, item]));
    for (const item of this.config.rawData)
      if (item.readOnly) raw[item.name] = liveRaw(item, t, this.startedAt);
    const display = (name: string) => {
      const item = items.get(name);
      return item ? scaleRaw(raw[name] ?? item.value, item.multiplier) : 0;
    };
    const profiled = profileValues(
      this.entry.productKey,
      this.serialNumber,
      t,
      display,
      this.place,
      this.adjust,
    );
    for (const [name, value] of Object.entries(profiled)) {
      const item = items.get(name);
      if (!item?.readOnly || !Number.isFinite(value)) continue;
      const { min, max } = fieldRange(item.buffer);
      raw[name] = Math.min(max, Math.max(min, unscale(value, item.multiplier)));
    }
    const timeItem = this.config.monitoring?.timeItem;
    if (timeItem) raw[timeItem] = Math.floor(t / 1000);
    return raw;
  }

  private handle(frame: Uint8Array): Uint8Array {
    const opcode = frame[0] ?? 0;
    if (frame.length !== this.bufferSize) return this.errorAnswer(ERROR_CODE.frameLength, opcode);
    try {
      this.codec.verifyFrame(frame, this.bufferSize);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      return this.errorAnswer(
        error.code === 'crc-mismatch' ? ERROR_CODE.crcMismatch : ERROR_CODE.frameLength,
        opcode,
      );
    }
    switch (opcode) {
      case OPCODE.readConfiguration:
      case OPCODE.readLiveValues:
        return this.configAnswer(opcode);
      case OPCODE.checkPassword:
        return this.checkPassword(frame);
      case OPCODE.provision:
        return this.provision(frame);
      default:
        if (!this.knows(opcode)) return this.errorAnswer(ERROR_CODE.unknownOpcode, opcode);
        if (!this.unlocked) return this.errorAnswer(ERROR_CODE.locked, opcode);
        return opcode === OPCODE.writeConfiguration
          ? this.writeConfiguration(frame)
          : this.runCommand(opcode);
    }
  }

  private configAnswer(opcode: number): Uint8Array {
    return buildConfigFrame(
      this.codec,
      this.config,
      answerOpcode(opcode),
      this.bufferSize,
      this.currentRaw(),
    );
  }

  private knows(opcode: number): boolean {
    return (
      opcode === OPCODE.writeConfiguration ||
      (opcode < ANSWER_FLAG && this.entry.commands.some((c) => c.opCode === opcode))
    );
  }

  private writeConfiguration(frame: Uint8Array): Uint8Array {
    const { raw } = decodeConfiguration(this.codec, this.config, frame);
    const outside = this.limits.find((l) => {
      const value = raw[l.name] ?? 0;
      return value < l.min || value > l.max;
    });
    // A real device refuses the whole write rather than clamp a setting it was told to store.
    if (outside)
      return this.smallAnswer(ERROR_OPCODE, [
        ERROR_CODE.outOfRange,
        OPCODE.writeConfiguration,
        outside.position,
      ]);
    const next = { ...this.settings };
    // Live values are measured, not configured: whatever a write carries for them is ignored.
    for (const item of this.config.rawData)
      if (!item.readOnly) next[item.name] = raw[item.name] ?? item.value;
    this.store.save(this.serialNumber, next);
    this.settings = next;
    return this.configAnswer(OPCODE.writeConfiguration);
  }

  private checkPassword(frame: Uint8Array): Uint8Array {
    const entered = Array.from(frame.subarray(1, 17));
    const match = this.codec.passwordsEqual(entered, devicePasswordCodes(this.settings));
    this.unlocked = match;
    const result = match ? PASSWORD_RESULT.correct : PASSWORD_RESULT.wrong;
    return this.smallAnswer(answerOpcode(OPCODE.checkPassword), [result]);
  }

  /** Takes a secret and an address, once unlocked; the answer is made after they are kept. */
  private provision(frame: Uint8Array): Uint8Array {
    if (!this.unlocked) return this.errorAnswer(ERROR_CODE.locked, OPCODE.provision);
    const given = readProvisioning(frame);
    if (!given) return this.errorAnswer(ERROR_CODE.badPayload, OPCODE.provision);
    this.given = given;
    this.onProvisioned?.(given);
    return this.smallAnswer(answerOpcode(OPCODE.provision), [COMMAND_DONE]);
  }

  private runCommand(opcode: number): Uint8Array {
    const command = this.entry.commands.find((c) => c.opCode === opcode);
    if (!command) return this.errorAnswer(ERROR_CODE.unknownOpcode, opcode);
    this.commandLog.push({ name: command.name, opCode: opcode, at: this.now() });
    if (command.name === 'Reset energy counters') {
      const measured = this.measuredRaw(this.now());
      for (const item of this.config.rawData)
        if (item.readOnly && item.unit === 'kWh') this.counterOffsets[item.name] = measured[item.name] ?? 0;
    }
    return this.smallAnswer(answerOpcode(opcode), [COMMAND_DONE]);
  }

  private errorAnswer(code: number, opcode: number): Uint8Array {
    return this.smallAnswer(ERROR_OPCODE, [code, opcode]);
  }

  private smallAnswer(opcode: number, payload: number[]): Uint8Array {
    return this.codec.buildFrame(opcode, this.bufferSize, Uint8Array.from(payload));
  }
}
