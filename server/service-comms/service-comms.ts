import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import WebSocket, { WebSocketServer } from 'ws';
import { DEVICE_CLOSE, type DeviceWelcome, deviceHelloSchema } from '../../contracts/service-comms.ts';
import type { Database } from '../db/schema.ts';
import { type Delivery, offline } from './delivery.ts';
import { DeviceConnection } from './device-connection.ts';
import { checkDeviceSecret, type RegisteredDevice } from './device-secrets.ts';
import { PgRelay } from './pg-relay.ts';
import { Presence } from './presence.ts';

/** Where devices connect, under the one-process server (the configuration service's mount). */
export const DEVICE_SOCKET_PATH = '/config/service-comms/devices/ws';

/** How long a new socket has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;

export interface ServiceCommsOptions {
  db: Kysely<Database>;
  /** PostgreSQL URL: commands for devices held by other processes go through LISTEN/NOTIFY. */
  databaseUrl?: string;
  timeoutMs: number;
  pingMs: number;
}

/**
 * Devices online (DESIGN.md §10): accepts device sockets, keeps presence in the database, and
 * delivers command frames to a device wherever its socket is: here, or on another server process
 * through PostgreSQL.
 */
export class ServiceComms {
  /** This process, as named in `device_presence.holder` and its NOTIFY channel. */
  readonly holder = randomUUID().replaceAll('-', '');
  readonly presence: Presence;
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  private readonly connections = new Map<string, DeviceConnection>();
  private readonly relay: PgRelay | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly options: ServiceCommsOptions) {
    // A process that stops answering pings for three rounds has died: its rows go stale.
    this.presence = new Presence(options.db, this.holder, Math.max(10, (options.pingMs * 3) / 1000));
    if (options.databaseUrl)
      this.relay = new PgRelay(
        options.databaseUrl,
        options.db,
        this.holder,
        (serial, data) => this.deliverHere(serial, data),
        (serial) => this.dropHere(serial),
      );
    this.sockets.on('connection', (socket, request) => this.accept(socket, request));
  }

  /** Start keep-alive and the relay. PGlite serves one process: rows left by an earlier run go. */
  async start(): Promise<void> {
    if (!this.relay) await this.presence.clear(true);
    await this.relay?.start();
    this.ticker = setInterval(() => this.tick(), this.options.pingMs);
    this.ticker.unref();
  }

  /** Route WebSocket upgrades of `DEVICE_SOCKET_PATH` on this HTTP server to the device sockets. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
      if (path !== DEVICE_SOCKET_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      this.sockets.handleUpgrade(request, socket, head, (ws) => this.sockets.emit('connection', ws, request));
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

  private dropHere(serial: string): void {
    this.connections.get(serial)?.socket.close(DEVICE_CLOSE.wrongSecret, 'the secret was replaced');
  }

  private deliverHere(serial: string, data: number[]): Promise<Delivery> {
    const connection = this.connections.get(serial);
    return connection ? connection.send(data, this.options.timeoutMs) : Promise.resolve(offline);
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    const from = request.socket.remoteAddress ?? 'unknown address';
    const refuse = (code: number, reason: string, serial = '?') => {
      console.warn(`[service-comms] refused device ${serial} from ${from}: ${reason}`);
      socket.close(code, reason);
    };
    const helloTimer = setTimeout(
      () => refuse(DEVICE_CLOSE.helloTimeout, 'no hello within 10 seconds'),
      HELLO_TIMEOUT_MS,
    );
    socket.on('error', (error) => console.warn(`[service-comms] socket from ${from}:`, error.message));
    socket.once('close', () => clearTimeout(helloTimer));
    socket.once('message', (raw, isBinary) => {
      clearTimeout(helloTimer);
      let parsed: unknown;
      try {
        parsed = isBinary ? undefined : JSON.parse(raw.toString());
      } catch {
        parsed = undefined;
      }
      const hello = deviceHelloSchema.safeParse(parsed);
      if (!hello.success) {
        const issue = hello.error.issues[0];
        const field = issue?.path.join('.') || 'message';
        refuse(DEVICE_CLOSE.badHello, `the first message must be a hello: ${field}: ${issue?.message ?? ''}`);
        return;
      }
      const { serialNumber, modelId, secret } = hello.data;
      checkDeviceSecret(this.options.db, serialNumber, secret).then(
        (check) => {
          if (!check.ok && check.reason === 'unknown_serial')
            return refuse(DEVICE_CLOSE.unknownSerial, 'unknown serial number', serialNumber);
          if (!check.ok) return refuse(DEVICE_CLOSE.wrongSecret, 'wrong secret', serialNumber);
          if (check.device.modelId !== modelId)
            return refuse(
              DEVICE_CLOSE.wrongModel,
              `this serial number is a ${check.device.modelId}, not a ${modelId}`,
              serialNumber,
            );
          return this.online(socket, check.device);
        },
        (error: unknown) => {
          console.error('[service-comms] hello check failed:', error);
          socket.close(1011, 'the service could not check the hello');
        },
      );
    });
  }

  private async online(socket: WebSocket, device: RegisteredDevice): Promise<void> {
    if (socket.readyState !== WebSocket.OPEN) return;
    const connection = new DeviceConnection(device, socket);
    const earlier = this.connections.get(device.serial);
    this.connections.set(device.serial, connection);
    earlier?.socket.close(DEVICE_CLOSE.replaced, 'the device connected again');
    socket.on('message', (raw, isBinary) => {
      if (!isBinary) connection.receive(raw.toString());
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
      socket.close(1011, 'the service could not record the connection');
      return;
    }
    // Closed while the claim was being written: the close handler's release may have run first.
    if (socket.readyState !== WebSocket.OPEN) {
      if (this.connections.get(device.serial) === undefined) await this.presence.release(device.serial);
      return;
    }
    const welcome: DeviceWelcome = { type: 'welcome', serialNumber: device.serial };
    socket.send(JSON.stringify(welcome));
    console.log(`[service-comms] ${device.serial} (${device.modelId}) is online`);
  }

  /** Keep-alive: drop sockets that missed a pong, ping the rest, and tell the database we live. */
  private tick(): void {
    for (const connection of this.connections.values()) {
      if (!connection.alive) {
        console.warn(`[service-comms] ${connection.device.serial} stopped answering pings`);
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
    this.presence
      .heartbeat()
      .catch((error: unknown) => console.error('[service-comms] presence heartbeat failed:', error));
  }

  /** Close every device socket, forget this process's presence and stop the relay. */
  async close(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    for (const connection of this.connections.values())
      connection.socket.close(1001, 'the service is shutting down');
    this.connections.clear();
    for (const client of this.sockets.clients) client.terminate();
    this.sockets.close();
    await this.presence.clear().catch(() => {});
    await this.relay?.close();
  }
}
