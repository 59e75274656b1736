import { z } from 'zod';
import type { CborMap } from './smp-cbor.ts';
import { IMAGE_COMMAND, OS_COMMAND, SMP_GROUP, SMP_OP, SmpError } from './smp-codes.ts';
import type { SmpHeader } from './smp-frame.ts';

/** A request before it gets its sequence number: what to send, to which group and command. */
export interface SmpRequest {
  op: typeof SMP_OP.read | typeof SMP_OP.write;
  group: number;
  command: number;
  body: Record<string, unknown>;
}

/** The image group's state read: every slot's version, hash and flags. */
export const readImageState = (): SmpRequest => ({
  op: SMP_OP.read,
  group: SMP_GROUP.image,
  command: IMAGE_COMMAND.state,
  body: {},
});

/**
 * The image group's state write. With a hash and `confirm: false` the image in that slot is marked
 * for test (it runs at the next start and is reverted unless confirmed); `confirm: true` without a
 * hash confirms the image that runs.
 */
export const writeImageState = (change: { hash?: Uint8Array; confirm: boolean }): SmpRequest => ({
  op: SMP_OP.write,
  group: SMP_GROUP.image,
  command: IMAGE_COMMAND.state,
  body: change.hash ? { hash: change.hash, confirm: change.confirm } : { confirm: change.confirm },
});

/** One chunk of an upload. The first (offset 0) also carries the image's length and SHA-256. */
export interface UploadChunk {
  off: number;
  data: Uint8Array;
  /** Bytes of the whole image; sent with the first chunk. */
  len?: number;
  /** SHA-256 of the whole image; sent with the first chunk, so that the device can resume. */
  sha?: Uint8Array;
  /** Image number; sent with the first chunk (0, the application). */
  image?: number;
}

export const uploadChunk = (chunk: UploadChunk): SmpRequest => ({
  op: SMP_OP.write,
  group: SMP_GROUP.image,
  command: IMAGE_COMMAND.upload,
  body:
    chunk.off === 0
      ? { image: chunk.image ?? 0, len: chunk.len, off: 0, sha: chunk.sha, data: chunk.data }
      : { off: chunk.off, data: chunk.data },
});

export const resetDevice = (): SmpRequest => ({
  op: SMP_OP.write,
  group: SMP_GROUP.os,
  command: OS_COMMAND.reset,
  body: {},
});

export const readParams = (): SmpRequest => ({
  op: SMP_OP.read,
  group: SMP_GROUP.os,
  command: OS_COMMAND.params,
  body: {},
});

const count = z.number().int().nonnegative();
const bytes = z.instanceof(Uint8Array);

const errorShape = z.object({
  rc: count.optional(),
  rsn: z.string().optional(),
  err: z.object({ group: count, rc: count }).optional(),
});

/**
 * The refusal an answer carries, or null when it carries none: an `rc` other than 0 (the original
 * protocol and SMP-level errors) or an `err` (SMP version 2, a group's own error).
 */
export function answerError(body: CborMap): SmpError | null {
  const parsed = errorShape.safeParse(body);
  if (!parsed.success) return new SmpError(3, null, 'the answer carries a malformed error');
  const { rc, rsn, err } = parsed.data;
  if (err && err.rc !== 0) return new SmpError(err.rc, err.group, rsn);
  if (rc !== undefined && rc !== 0) return new SmpError(rc, null, rsn);
  return null;
}

/** Whether `answer` is the answer to `request` (op, group, command and sequence). */
export function answers(answer: SmpHeader, request: SmpHeader): boolean {
  return (
    answer.op === request.op + 1 &&
    answer.group === request.group &&
    answer.command === request.command &&
    answer.sequence === request.sequence
  );
}

const slotShape = z.object({
  image: count.default(0),
  slot: count,
  version: z.string().max(32),
  hash: bytes.optional(),
  bootable: z.boolean().default(false),
  pending: z.boolean().default(false),
  confirmed: z.boolean().default(false),
  active: z.boolean().default(false),
  permanent: z.boolean().default(false),
});
export type ImageSlotState = z.infer<typeof slotShape>;

const stateShape = z.object({ images: z.array(slotShape).max(8) });

/** What a device answers to a state read or write. @throws SmpError for a refusal or a bad shape. */
export function readImageStateAnswer(body: CborMap): ImageSlotState[] {
  const error = answerError(body);
  if (error) throw error;
  const parsed = stateShape.safeParse(body);
  if (!parsed.success) throw new SmpError(3, null, 'the image state answer has an unexpected shape');
  return parsed.data.images;
}

/** The offset the device expects next (it may be behind or past what was sent: resume from it). */
export function readUploadAnswer(body: CborMap): { off: number; match?: boolean } {
  const error = answerError(body);
  if (error) throw error;
  const parsed = z.object({ off: count, match: z.boolean().optional() }).safeParse(body);
  if (!parsed.success) throw new SmpError(3, null, 'the upload answer has no offset');
  return parsed.data;
}

/** The device's SMP buffer: the largest message it takes (`buf_size`) and how many at once. */
export interface McumgrParams {
  bufSize: number;
  bufCount: number;
}

export function readParamsAnswer(body: CborMap): McumgrParams {
  const error = answerError(body);
  if (error) throw error;
  const parsed = z
    .object({ buf_size: z.number().int().min(64).max(65_535), buf_count: z.number().int().min(1) })
    .safeParse(body);
  if (!parsed.success) throw new SmpError(3, null, 'the MCUmgr parameters answer has an unexpected shape');
  return { bufSize: parsed.data.buf_size, bufCount: parsed.data.buf_count };
}

/** A reset, or a state write: an answer with no error. @throws SmpError */
export function readDoneAnswer(body: CborMap): void {
  const error = answerError(body);
  if (error) throw error;
}
