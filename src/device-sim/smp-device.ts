import type { FirmwareCodec, FirmwareImage, FirmwareImageReader } from '../codec/firmware/image-types.ts';
import { FirmwareImageError } from '../codec/firmware/image-types.ts';
import type { CborMap } from '../smp/smp-cbor.ts';
import { IMAGE_COMMAND, IMG_ERR, MGMT_ERR, OS_COMMAND, SMP_GROUP, SMP_OP } from '../smp/smp-codes.ts';
import { decodeMessage, encodeMessage, readHeader, SmpFrameError, type SmpHeader } from '../smp/smp-frame.ts';
import type { FirmwareKeyring } from './firmware-keyring.ts';
import { type BootOutcome, FirmwareSlots, type SlotImage } from './firmware-slots.ts';

/** The device's SMP buffer: the largest message it takes. */
export const SIM_BUF_SIZE = 2475;
export const SIM_BUF_COUNT = 4;
/** Bytes of the secondary slot. */
export const SIM_SLOT_SIZE = 4 * 1024 * 1024;

export interface SmpDeviceOptions {
  firmware: FirmwareCodec;
  /** The device's model: an image for another model is refused. */
  modelId: string;
  /** The version of the image it left the factory with. */
  version: string;
  /** The public keys whose signatures it accepts. */
  keyring: FirmwareKeyring;
  /** Whether a new image comes up after a start; false: it hangs, and the device reverts. */
  healthy?: boolean;
  bufSize?: number;
}

/** A refusal: the SMP-level code (the original protocol's `rc`) and the image group's own code. */
class Refusal {
  readonly rc: number;
  readonly img: number | undefined;
  readonly reason: string;

  constructor(fields: { rc: number; img?: number; reason: string }) {
    this.rc = fields.rc;
    this.img = fields.img;
    this.reason = fields.reason;
  }
}

/** An answer, and whether the device resets once it is sent. */
export interface SmpReply {
  answer: Uint8Array;
  reset: boolean;
}

interface Upload {
  len: number;
  sha: Uint8Array | undefined;
  off: number;
  bytes: Uint8Array;
  reader: FirmwareImageReader;
}

const IMAGE_ERRORS: Record<FirmwareImageError['code'], number> = {
  'image-magic': IMG_ERR.invalidImageHeaderMagic,
  'image-header': IMG_ERR.invalidImageHeader,
  'image-size': IMG_ERR.invalidImageHeader,
  'tlv-magic': IMG_ERR.invalidTlv,
  'tlv-length': IMG_ERR.invalidTlv,
  'tlv-missing': IMG_ERR.hashNotFound,
  'tlv-duplicate': IMG_ERR.invalidTlv,
  'tlv-place': IMG_ERR.invalidTlv,
  'tlv-value': IMG_ERR.invalidTlv,
  'hash-mismatch': IMG_ERR.invalidHash,
};

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function factoryHash(firmware: FirmwareCodec, modelId: string, version: string): Uint8Array {
  return firmware.sha256(new TextEncoder().encode(`factory image ${modelId} ${version}`));
}

/**
 * The device side of SMP (MCUmgr) with MCUboot's two slots: image state read and write (test,
 * confirm), upload by offset that resumes where it stopped for the same SHA-256, the image checked
 * (structure and hash by the Wasm parser, model, key, Ed25519 signature) before it may be tested,
 * reset, and MCUmgr's parameters. Every answer is an SMP message; bytes that are not one get none.
 */
export class SmpDevice {
  readonly slots: FirmwareSlots;
  private upload: Upload | null = null;
  private readonly bufSize: number;

  constructor(private readonly options: SmpDeviceOptions) {
    const healthy = options.healthy ?? true;
    this.slots = new FirmwareSlots(
      {
        version: options.version,
        hash: factoryHash(options.firmware, options.modelId, options.version),
        modelId: options.modelId,
      },
      (image) => healthy || image.version === options.version,
    );
    this.bufSize = options.bufSize ?? SIM_BUF_SIZE;
  }

  /** The version of the image that runs. */
  get runningVersion(): string {
    return this.slots.primary.version;
  }

  /** Bytes of the upload in progress received so far (0 when none). */
  get uploadOffset(): number {
    return this.upload?.off ?? 0;
  }

  /** The device starts again (after a reset or a power cut): MCUboot swaps or reverts. */
  restart(): BootOutcome {
    return this.slots.boot();
  }

  /**
   * Takes one SMP request, answers it. Never throws for any input: bytes that are not an SMP
   * request get no answer (null); a request it cannot honour gets an error answer. `reset`: the
   * device resets once the answer is out (the host drops the link, then calls {@link restart}).
   */
  async handle(bytes: Uint8Array): Promise<SmpReply | null> {
    if (bytes.length < 8) return null;
    const header = readHeader(bytes);
    if (header.op !== SMP_OP.read && header.op !== SMP_OP.write) return null;
    if (bytes.length > this.bufSize) return this.reply(header, this.refusal(MGMT_ERR.messageSize, header));
    let body: CborMap;
    try {
      body = decodeMessage(bytes).body;
    } catch (error) {
      if (!(error instanceof SmpFrameError)) throw error;
      return this.reply(header, new Refusal({ rc: MGMT_ERR.invalid, reason: error.message }));
    }
    return this.reply(header, await this.dispatch(header, body));
  }

  private reply(request: SmpHeader, result: CborMap | Refusal): SmpReply {
    const reset =
      request.group === SMP_GROUP.os && request.command === OS_COMMAND.reset && !(result instanceof Refusal);
    return { answer: this.answer(request, result), reset };
  }

  private async dispatch(header: SmpHeader, body: CborMap): Promise<CborMap | Refusal> {
    const write = header.op === SMP_OP.write;
    if (header.group === SMP_GROUP.os) {
      if (header.command === OS_COMMAND.params && !write)
        return { buf_size: this.bufSize, buf_count: SIM_BUF_COUNT };
      if (header.command === OS_COMMAND.reset && write) return {};
      if (header.command === OS_COMMAND.echo && typeof body.d === 'string') return { r: body.d };
    }
    if (header.group === SMP_GROUP.image) {
      if (header.command === IMAGE_COMMAND.state) return write ? this.changeState(body) : this.state();
      if (header.command === IMAGE_COMMAND.upload && write) return this.receive(body);
    }
    return this.refusal(MGMT_ERR.notSupported, header);
  }

  private refusal(rc: number, header: SmpHeader): Refusal {
    return new Refusal({ rc, reason: `group ${header.group} command ${header.command} op ${header.op}` });
  }

  /** An answer in the request's protocol version: SMP 2 names the image group's own error. */
  private answer(request: SmpHeader, result: CborMap | Refusal): Uint8Array {
    let body: Record<string, unknown>;
    if (result instanceof Refusal)
      body =
        request.version >= 1 && result.img !== undefined
          ? { err: { group: SMP_GROUP.image, rc: result.img }, rsn: result.reason }
          : { rc: result.rc, rsn: result.reason };
    else body = result;
    return encodeMessage(
      {
        op: (request.op + 1) as 1 | 3,
        version: request.version === 0 ? 0 : 1,
        group: request.group,
        sequence: request.sequence,
        command: request.command,
      },
      body,
    );
  }

  private state(): CborMap {
    const { primary, secondary, confirmed, pending } = this.slots;
    const images: CborMap[] = [
      {
        image: 0,
        slot: 0,
        version: primary.version,
        hash: primary.hash,
        bootable: true,
        pending: false,
        confirmed,
        active: true,
        permanent: false,
      },
    ];
    if (secondary)
      images.push({
        image: 0,
        slot: 1,
        version: secondary.version,
        hash: secondary.hash,
        bootable: true,
        pending: pending !== null,
        // The image that runs after a revert counts as confirmed.
        confirmed: !confirmed,
        active: false,
        permanent: pending === 'permanent',
      });
    return { images };
  }

  private changeState(body: CborMap): CborMap | Refusal {
    const { hash, confirm } = body;
    if ((hash !== undefined && !isBytes(hash)) || (confirm !== undefined && typeof confirm !== 'boolean'))
      return new Refusal({ rc: MGMT_ERR.invalid, reason: 'hash must be bytes and confirm a boolean' });
    const slots = this.slots;
    if (hash === undefined || sameBytes(hash, slots.primary.hash)) {
      if (confirm === true) slots.confirmed = true;
      else if (hash === undefined)
        return new Refusal({ rc: MGMT_ERR.invalid, reason: 'a test needs the hash of the image to test' });
      return this.state();
    }
    if (!slots.secondary || !sameBytes(hash, slots.secondary.hash))
      return new Refusal({
        rc: MGMT_ERR.noEntry,
        img: IMG_ERR.hashNotFound,
        reason: 'no image with that hash',
      });
    if (!slots.confirmed)
      return new Refusal({
        rc: MGMT_ERR.badState,
        img: IMG_ERR.confirmationDenied,
        reason: 'the running image is under test: confirm it or let it revert first',
      });
    slots.pending = confirm === true ? 'permanent' : 'test';
    return this.state();
  }

  private async receive(body: CborMap): Promise<CborMap | Refusal> {
    const { off, data, len, sha, image } = body;
    if (!isCount(off) || !isBytes(data))
      return new Refusal({ rc: MGMT_ERR.invalid, reason: 'an upload needs off (a count) and data (bytes)' });
    if (off === 0) {
      if (image !== undefined && image !== 0)
        return new Refusal({
          rc: MGMT_ERR.invalid,
          img: IMG_ERR.invalidSlot,
          reason: 'this device has image 0 only',
        });
      if (!isCount(len) || len === 0)
        return new Refusal({
          rc: MGMT_ERR.invalid,
          img: IMG_ERR.invalidLength,
          reason: 'the first chunk needs len',
        });
      if (sha !== undefined && (!isBytes(sha) || sha.length === 0 || sha.length > 32))
        return new Refusal({ rc: MGMT_ERR.invalid, reason: 'sha must be up to 32 bytes' });
      const current = this.upload;
      // The same image again (its SHA-256 and length): carry on where the link dropped.
      if (current?.sha && sha && current.off > 0 && current.len === len && sameBytes(current.sha, sha))
        return { off: current.off };
      const started = this.start(len, sha);
      if (started) return started;
    }
    const upload = this.upload;
    if (!upload)
      return new Refusal({
        rc: MGMT_ERR.invalid,
        img: IMG_ERR.invalidOffset,
        reason: 'no upload in progress',
      });
    // Not where it left off: say where, and the sender goes on from there.
    if (off !== upload.off) return { off: upload.off };
    if (off + data.length > upload.len)
      return this.abandon(
        new Refusal({ rc: MGMT_ERR.invalid, img: IMG_ERR.imageDataOverrun, reason: 'more data than len' }),
      );
    try {
      upload.reader.push(data);
    } catch (error) {
      return this.abandon(imageRefusal(error));
    }
    upload.bytes.set(data, off);
    upload.off += data.length;
    if (upload.off < upload.len) return { off: upload.off };
    return this.complete(upload);
  }

  private start(len: number, sha: Uint8Array | undefined): Refusal | null {
    if (!this.slots.secondaryWritable)
      return new Refusal({
        rc: MGMT_ERR.badState,
        img: this.slots.pending ? IMG_ERR.imageAlreadyPending : IMG_ERR.noFreeSlot,
        reason: this.slots.pending
          ? 'an image is already marked to run at the next start'
          : 'the running image is under test: the other slot holds the way back',
      });
    if (len > SIM_SLOT_SIZE)
      return new Refusal({
        rc: MGMT_ERR.noMemory,
        img: IMG_ERR.imageTooLarge,
        reason: `the slot holds ${SIM_SLOT_SIZE} bytes`,
      });
    this.slots.secondary = null;
    this.upload = {
      len,
      sha: sha?.slice(),
      off: 0,
      bytes: new Uint8Array(len),
      reader: this.options.firmware.readImage(),
    };
    return null;
  }

  private async complete(upload: Upload): Promise<CborMap | Refusal> {
    this.upload = null;
    let image: FirmwareImage;
    try {
      image = upload.reader.finish();
    } catch (error) {
      return imageRefusal(error);
    }
    if (
      upload.sha &&
      !sameBytes(upload.sha, this.options.firmware.sha256(upload.bytes).subarray(0, upload.sha.length))
    )
      return new Refusal({
        rc: MGMT_ERR.corrupt,
        img: IMG_ERR.invalidHash,
        reason: 'the image is not the one its sha announced',
      });
    if (image.modelId !== this.options.modelId)
      return new Refusal({
        rc: MGMT_ERR.invalid,
        img: IMG_ERR.invalidTlv,
        reason: `the image is for model ${image.modelId}, not ${this.options.modelId}`,
      });
    const check = await this.options.keyring.check(image);
    if (check !== 'ok')
      return new Refusal({
        rc: MGMT_ERR.accessDenied,
        reason:
          check === 'untrusted'
            ? 'the image is signed with a key this device does not trust'
            : 'the signature does not verify',
      });
    const slot: SlotImage = { version: image.versionText, hash: image.sha256, modelId: image.modelId };
    this.slots.secondary = slot;
    return { off: upload.off, match: true };
  }

  private abandon(refusal: Refusal): Refusal {
    this.upload = null;
    return refusal;
  }
}

function imageRefusal(error: unknown): Refusal {
  if (!(error instanceof FirmwareImageError)) throw error;
  return new Refusal({
    rc: error.code === 'hash-mismatch' ? MGMT_ERR.corrupt : MGMT_ERR.invalid,
    img: IMAGE_ERRORS[error.code],
    reason: error.message,
  });
}
