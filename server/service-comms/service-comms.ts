import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import WebSocket, { type RawData, WebSocketServer } from 'ws';
import { errorMessage } from '../../contracts/error-message.ts';
import { DEVICE_CLOSE, type DeviceWelcome, deviceHelloSchema } from '../../contracts/service-comms.ts';
import { overRateLimit } from '../auth/rate-limit.ts';
import { type Clock, systemClock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { recordFirmwareVersion } from '../firmware/device-version.ts';
import { requestAddress } from '../http/client-address.ts';
import { plainHttpFallback } from '../http/plain-http.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { LogSummary } from '../logging/log-summary.ts';
import { closeSocket } from './close-socket.ts';
import { type Delivery, offline, type SmpDelivery } from './delivery.ts';
import { DeviceConnection, isTelemetryMessage, type TelemetrySink } from './device-connection.ts';
import { checkDeviceSecret, type RegisteredDevice } from './device-secrets.ts';
import { PgRelay } from './pg-relay.ts';
import { Presence, presenceStaleSeconds } from './presence.ts';
import { readBinaryTelemetry } from './telemetry-input.ts';

/** Where devices connect, under the one-process server (the configuration service's mount). */
export const DEVICE_SOCKET_PATH = '/config/service-comms/devices/ws';

/** How long a new socket has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** Why a stopping process closes device sockets (with {@link DEVICE_CLOSE.serviceRestart}). */
const RESTART_REASON = 'the service is restarting; connect again';
/** How long a stopping process waits for devices to close their end before cutting them. */
const CLOSE_WAIT_MS = 2000;

export interface ServiceCommsOptions {
  db: Kysely<Database>;
  /** The clock the limit on hellos is counted by (default the real time). */
  now?: Clock;
  /** PostgreSQL URL: commands for devices held by other processes go through LISTEN/NOTIFY. */
  databaseUrl?: string;
  timeoutMs: number;
  pingMs: number;
  /** Trusted proxies in front of the server (`TRUST_PROXY`): where a device's address is read. */
  trustProxy?: number;
  /** Where summarised log lines go (default `console.warn`). */
  log?: (line: string) => void;
  /** Telemetry from devices, and the interval (seconds) each device is told to send it at. */
  telemetry?: { sink: TelemetrySink; intervalS: number };
}

/** A message's bytes, however `ws` handed them over (one buffer, fragments, or an ArrayBuffer). */
function bytesOf(raw: RawData): Uint8Array {
  if (Buffer.isBuffer(raw)) return raw;
  if (Array.isArray(raw)) return Buffer.concat(raw);
  return new Uint8Array(raw);
}

/** The path of a request target, without its query and trailing slashes; never throws. */
export function requestPath(target: string | undefined): string {
  return (target ?? '/').split('?', 1)[0]?.replace(/\/+$/, '') ?? '';
}

/**
 * Devices online (DESIGN.md §10): accepts device sockets, keeps presence in the database, and
 * delivers command frames to a device wherever its socket is: here, or on another server process
 * through PostgreSQL. Nothing a device or a client sends may stop the process: every handler of a
 * socket catches its own failures, logs them (summarised) and ends that socket only.
 */
export class ServiceComms {
  /** This process, as named in `device_presence.holder` and its NOTIFY channel. */
  readonly holder = randomUUID().replaceAll('-', '');
  readonly presence: Presence;
  /** Lines a caller can repeat at will (refused hellos, junk messages) are written summarised. */
  readonly log: LogSummary;
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  private readonly connections = new Map<string, DeviceConnection>();
  /** Sockets whose hello is being checked, and the listener that counts what they send meanwhile. */
  private readonly unproven = new WeakMap<WebSocket, (data: RawData, binary: boolean) => void>();
  private readonly relay: PgRelay | undefined;
  private ticker: NodeJS.Timeout | undefined;
  /** Told of each device this process welcomes (a firmware rollout updates it when its turn came). */
  private readonly onlineListeners = new Set<(serial: string) => void>();
  /** Stopping: no new device sockets, no telemetry taken on the open ones. */
  private stopping = false;

  constructor(private readonly options: ServiceCommsOptions) {
    this.log = new LogSummary(options.log ?? console.warn);
    // A process that stops answering pings for three rounds has died: its rows go stale.
    this.presence = new Presence(options.db, this.holder, presenceStaleSeconds(options.pingMs));
    if (options.databaseUrl)
      this.relay = new PgRelay(
        options.databaseUrl,
        options.db,
        this.holder,
        (serial, data) => this.deliverHere(serial, data),
        (serial) => this.dropHere(serial),
      );
    this.sockets.on('connection', (socket, request) => {
      try {
        this.accept(socket, request);
      } catch (error) {
        this.failed(socket, 'accepting a device socket', error);
      }
    });
  }

  /** Start keep-alive and the relay. PGlite serves one process: rows left by an earlier run go. */
  async start(): Promise<void> {
    if (!this.relay) await this.presence.clear(true);
    await this.relay?.start();
    this.ticker = setInterval(() => this.tick(), this.options.pingMs);
    this.ticker.unref();
  }

  /**
   * Route WebSocket upgrades of `DEVICE_SOCKET_PATH` on this HTTP server to the device sockets;
   * a request on any other path that asks to upgrade is served as plain HTTP/1.1. A failure while
   * handling one upgrade request is logged and ends that connection only.
   */
  attach(server: Server): void {
    const servePlain = plainHttpFallback(server);
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node takes its own error handling off a socket it hands to 'upgrade': a client resetting
      // the connection now would raise an error nobody listens to, which stops the process.
      const onError = (error: Error) =>
        this.log.note(
          '[service-comms] upgrade socket errors',
          `[service-comms] upgrade socket: ${error.message}`,
        );
      socket.on('error', onError);
      try {
        // Only the device socket upgrades; anything else is served as the HTTP/1.1 request it
        // is, by the server's own connection handling (errors included).
        if (requestPath(request.url) !== DEVICE_SOCKET_PATH) {
          socket.off('error', onError);
          return servePlain(request, socket, head);
        }
        // Stopping (an upgrade on a connection kept alive from before): the device goes elsewhere.
        if (this.stopping) {
          socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        this.sockets.handleUpgrade(request, socket, head, (ws) =>
          this.sockets.emit('connection', ws, request),
        );
      } catch (error) {
        this.log.note(
          '[service-comms] failed upgrades',
          `[service-comms] an upgrade failed: ${errorMessage(error)}`,
        );
        socket.destroy();
      }
    });
  }

  /** Deliver a frame to a device wherever its socket is held; `device_offline` when nowhere. */
  async deliver(serial: string, data: number[]): Promise<Delivery> {
    const holder = await this.presence.holderOf(serial);
    if (!holder) return offline;
    if (holder === this.holder) return this.deliverHere(serial, data);
    if (!this.relay) return offline;
    return this.relay.request(holder, serial, data, this.options.timeoutMs);
  }

  /**
   * The device's secret was replaced: close its socket wherever it is held, so that it has to
   * prove itself again with the new secret (a device holding the old one is refused from now on).
   */
  async dropDevice(serial: string): Promise<void> {
    const holder = await this.presence.holderOf(serial);
    if (holder === this.holder) this.dropHere(serial);
    else if (holder) await this.relay?.drop(holder, serial);
  }

  /**
   * One SMP exchange with a device whose socket this process holds (`device_offline` when it holds
   * none: a rollout updates a device from the process that holds its socket).
   */
  smp(serial: string, message: Uint8Array, timeoutMs = this.options.timeoutMs): Promise<SmpDelivery> {
    const connection = this.connections.get(serial);
    return connection ? connection.smp(message, timeoutMs) : Promise.resolve(offline);
  }

  /** Whether this process holds the device's socket now, open (not closing). */
  holds(serial: string): boolean {
    return this.connections.get(serial)?.socket.readyState === WebSocket.OPEN;
  }

  /** Be told of each device welcomed from now on; answers the function that stops it. */
  onOnline(listener: (serial: string) => void): () => void {
    this.onlineListeners.add(listener);
    return () => this.onlineListeners.delete(listener);
  }

  private dropHere(serial: string): void {
    const connection = this.connections.get(serial);
    if (connection) closeSocket(connection.socket, DEVICE_CLOSE.wrongSecret, 'the secret was replaced');
  }

  private deliverHere(serial: string, data: number[]): Promise<Delivery> {
    const connection = this.connections.get(serial);
    return connection ? connection.send(data, this.options.timeoutMs) : Promise.resolve(offline);
  }

  /** Log a failure in one socket's handling (summarised) and close that socket. */
  private failed(socket: WebSocket, doing: string, error: unknown): void {
    this.log.note(
      `[service-comms] failed ${doing}`,
      `[service-comms] failed ${doing}: ${errorMessage(error)}`,
    );
    closeSocket(socket, 1011, 'the service failed to handle this connection');
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    // An X-Forwarded-For entry is the client's text: kept short for the log and the limit's key.
    const from = requestAddress(request, this.options.trustProxy ?? 0).slice(0, 64);
    const helloTimer = setTimeout(
      () => this.refuse(socket, from, DEVICE_CLOSE.helloTimeout, 'no hello within 10 seconds'),
      HELLO_TIMEOUT_MS,
    );
    socket.on('error', (error) =>
      this.log.note(
        '[service-comms] device socket errors',
        `[service-comms] socket from ${from}: ${error.message}`,
      ),
    );
    socket.once('close', () => clearTimeout(helloTimer));
    socket.once('message', (raw, isBinary) => {
      clearTimeout(helloTimer);
      // Until the hello is checked and the device welcomed, telemetry proves nothing: counted, dropped.
      const early = (data: RawData, binary: boolean) => this.beforeWelcome(data, binary);
      this.unproven.set(socket, early);
      socket.on('message', early);
      this.hello(socket, from, raw, isBinary)
        .catch((error: unknown) => this.failed(socket, 'checking a hello', error))
        .finally(() => this.proven(socket));
    });
  }

  /** The socket's hello was checked (accepted or not): stop counting its messages as unproven. */
  private proven(socket: WebSocket): void {
    const early = this.unproven.get(socket);
    if (early) socket.off('message', early);
    this.unproven.delete(socket);
  }

  /** A message on a socket whose hello is not accepted (yet): telemetry is counted as unauthenticated. */
  private beforeWelcome(raw: RawData, isBinary: boolean): void {
    if (!this.options.telemetry) return;
    if (isBinary) {
      if (readBinaryTelemetry(bytesOf(raw))) this.options.telemetry.sink.refused('unauthenticated');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString());
    } catch {
      return;
    }
    if (isTelemetryMessage(parsed)) this.options.telemetry.sink.refused('unauthenticated');
  }

  /**
   * Refuse a device: close with a code and the service's own reason (never text the device sent),
   * and log it summarised, since anyone can send hellos as fast as they like.
   */
  private refuse(socket: WebSocket, from: string, code: number, reason: string, serial = '?'): void {
    this.log.note(
      `[service-comms] refused device hellos (${code})`,
      `[service-comms] refused device ${serial} from ${from}: ${reason}`,
    );
    closeSocket(socket, code, reason);
  }

  private async hello(socket: WebSocket, from: string, raw: RawData, isBinary: boolean): Promise<void> {
    let parsed: unknown;
    try {
      parsed = isBinary ? undefined : JSON.parse(raw.toString());
    } catch {
      parsed = undefined;
    }
    const hello = deviceHelloSchema.safeParse(parsed);
    if (!hello.success) {
      // The field's name comes from the schema and the problem from its checks: no device text.
      const issue = hello.error.issues[0];
      const field = issue?.path.join('.') || 'message';
      const problem = `the first message must be a hello: ${field}: ${issue?.message ?? 'invalid'}`;
      return this.refuse(socket, from, DEVICE_CLOSE.badHello, problem);
    }
    const { serialNumber, modelId, secret } = hello.data;
    const limits = limitChecks('hello', { helloPerAddress: from });
    if (await overRateLimit({ db: this.options.db, now: this.options.now ?? systemClock }, limits))
      return this.refuse(
        socket,
        from,
        DEVICE_CLOSE.tooManyHellos,
        'too many hellos from this address; wait a minute',
      );
    const check = await checkDeviceSecret(this.options.db, serialNumber, secret);
    // One code and one reason whether the serial is unknown or the secret wrong: the socket does
    // not tell anyone which serial numbers exist.
    if (!check.ok)
      return this.refuse(
        socket,
        from,
        DEVICE_CLOSE.wrongSecret,
        'unknown serial number or wrong secret',
        serialNumber,
      );
    if (check.device.modelId !== modelId)
      return this.refuse(
        socket,
        from,
        DEVICE_CLOSE.wrongModel,
        `this serial number is a ${check.device.modelId}, not the model the hello names`,
        serialNumber,
      );
    if (hello.data.firmwareVersion)
      await recordFirmwareVersion(this.options.db, check.device.id, hello.data.firmwareVersion);
    await this.online(socket, check.device);
  }

  private async online(socket: WebSocket, device: RegisteredDevice): Promise<void> {
    if (socket.readyState !== WebSocket.OPEN) return;
    this.proven(socket);
    if (this.stopping) {
      closeSocket(socket, DEVICE_CLOSE.serviceRestart, RESTART_REASON);
      return;
    }
    const connection = new DeviceConnection(device, socket, this.log, this.options.telemetry?.sink);
    const earlier = this.connections.get(device.serial);
    this.connections.set(device.serial, connection);
    if (earlier) closeSocket(earlier.socket, DEVICE_CLOSE.replaced, 'the device connected again');
    socket.on('message', (raw, isBinary) => {
      try {
        if (isBinary) connection.receiveBinary(bytesOf(raw));
        else connection.receive(raw.toString());
      } catch (error) {
        this.failed(socket, "reading a device's message", error);
      }
    });
    socket.once('close', () => {
      connection.closedNow();
      if (this.connections.get(device.serial) !== connection) return;
      this.connections.delete(device.serial);
      this.presence
        .release(device.serial)
        .catch((error: unknown) => console.error('[service-comms] presence release failed:', error));
      console.log(`[service-comms] ${device.serial} went offline`);
    });
    try {
      await this.presence.claim(device);
    } catch (error) {
      console.error('[service-comms] presence claim failed:', error);
      closeSocket(socket, 1011, 'the service could not record the connection');
      return;
    }
    // Closed while the claim was being written: the close handler's release may have run first.
    if (socket.readyState !== WebSocket.OPEN) {
      if (this.connections.get(device.serial) === undefined) await this.presence.release(device.serial);
      return;
    }
    const welcome: DeviceWelcome = {
      type: 'welcome',
      serialNumber: device.serial,
      ...(this.options.telemetry ? { telemetryIntervalS: this.options.telemetry.intervalS } : {}),
    };
    socket.send(JSON.stringify(welcome));
    console.log(`[service-comms] ${device.serial} (${device.modelId}) is online`);
    for (const listener of this.onlineListeners) listener(device.serial);
  }

  /** Keep-alive: drop sockets that missed a pong, ping the rest, and tell the database we live. */
  private tick(): void {
    for (const connection of this.connections.values()) {
      try {
        if (!connection.alive) {
          console.warn(`[service-comms] ${connection.device.serial} stopped answering pings`);
          connection.socket.terminate();
          continue;
        }
        connection.alive = false;
        connection.socket.ping();
      } catch (error) {
        this.failed(connection.socket, 'pinging a device', error);
      }
    }
    this.presence
      .heartbeat()
      .catch((error: unknown) => console.error('[service-comms] presence heartbeat failed:', error));
  }

  /**
   * Stop taking device sockets and telemetry (the process is stopping). Telemetry already taken
   * is still stored and acknowledged; what devices send from now on they send again elsewhere.
   */
  stopTaking(): void {
    this.stopping = true;
    for (const connection of this.connections.values()) connection.stopTaking();
  }

  /**
   * Close every device socket with 1012 (reconnect at once, elsewhere), forget this process's
   * presence and stop the relay. Waits a moment for the devices to close their end.
   */
  async close(): Promise<void> {
    this.stopTaking();
    if (this.ticker) clearInterval(this.ticker);
    const closed = [...this.connections.values()].map(
      (connection) =>
        new Promise<void>((resolve) => {
          if (connection.socket.readyState === WebSocket.CLOSED) return resolve();
          connection.socket.once('close', () => resolve());
          closeSocket(connection.socket, DEVICE_CLOSE.serviceRestart, RESTART_REASON);
        }),
    );
    await Promise.race([
      Promise.all(closed),
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
    this.connections.clear();
    for (const client of this.sockets.clients) client.terminate();
    this.sockets.close();
    this.log.close();
    await this.presence.clear().catch(() => {});
    await this.relay?.close();
  }
}
