import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { STANDARD_COMMANDS } from '../../contracts/catalogue.ts';
import type { ConfigChange } from '../../contracts/config-history.ts';
import type { DeviceApplyResult, TemplateSettings } from '../../contracts/config-templates.ts';
import { type Codec, CodecError } from '../../src/codec/types.ts';
import {
  checkTemplate,
  templatableFields,
  templateDiff,
  templateWriteValues,
} from '../../src/device-config/config-template.ts';
import { type DecodedConfig, decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { differingSettings } from '../../src/device-config/differing-settings.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm, type FormGroupModel } from '../../src/device-config/form-fields.ts';
import { settingChoices, shownValue } from '../../src/device-config/setting-choices.ts';
import { ERROR_CODE, ERROR_OPCODE } from '../../src/device-protocol/protocol.ts';
import type { DeviceRights } from '../access/device-access.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { ServerContext } from '../context.ts';
import { logExchange } from '../service-comms/command-log.ts';
import { emitConfigurationWritten } from '../webhooks/events.ts';
import type { CatalogueProduct } from './product-catalogue.ts';

/** What an error answer's codes mean (docs/device-protocol.md, "Error answers"). */
const DEVICE_ERRORS: Record<number, string> = {
  [ERROR_CODE.crcMismatch]: 'the device received a damaged frame',
  [ERROR_CODE.frameLength]: 'the device expected a frame of another size',
  [ERROR_CODE.unknownOpcode]: 'the device does not know this command',
  [ERROR_CODE.noCommand]: 'the device had no answer ready',
  [ERROR_CODE.locked]: 'the device is locked: give its password',
  [ERROR_CODE.outOfRange]: 'the device refused a setting outside its limits',
};

/** Why one exchange with a device did not give an answer to use. */
class ExchangeFailure extends Error {}

/** The template being applied, as the run needs it. */
export interface ApplyingTemplate {
  name: string;
  modelId: string;
  settings: TemplateSettings;
}

interface RunContext {
  ctx: ServerContext;
  codec: Codec;
  product: CatalogueProduct;
  sender: Principal;
  device: DeviceRights;
}

/**
 * One command to a device online and its checked answer, logged in the device's command log as
 * every `/service-comms/command` is. Only the model's catalogue commands are sent.
 * @throws {ExchangeFailure} offline, no answer, a damaged or unrelated answer, an error answer.
 */
async function exchange(run: RunContext, command: string, payload?: Uint8Array): Promise<Uint8Array> {
  const { codec, product } = run;
  const opCode = product.entry.commands.find((c) => c.name === command)?.opCode;
  if (opCode === undefined) throw new ExchangeFailure(`the ${product.modelId} has no "${command}" command`);
  const frame = codec.buildFrame(opCode, product.entry.write.bufferSize, payload);
  return sendFrame(run, frame, opCode);
}

async function sendFrame(run: RunContext, frame: Uint8Array, opCode: number): Promise<Uint8Array> {
  const { ctx, codec, product, sender, device } = run;
  const command = [...frame];
  const sentAt = new Date();
  const delivery = await ctx.comms.deliver(device.serial, command);
  await logExchange(ctx.db, { device, sender, command, delivery, sentAt });
  if (!delivery.ok)
    throw new ExchangeFailure(
      delivery.code === 'device_offline'
        ? 'the device is not online'
        : `the device did not answer within ${ctx.env.SERVICE_COMMS_TIMEOUT_MS} ms`,
    );
  const answer = Uint8Array.from(delivery.data);
  try {
    codec.verifyFrame(answer, product.entry.write.bufferSize);
  } catch (error) {
    if (error instanceof CodecError) throw new ExchangeFailure(`the answer was damaged (${error.message})`);
    throw error;
  }
  if (answer[0] === ERROR_OPCODE)
    throw new ExchangeFailure(DEVICE_ERRORS[answer[1] ?? 0] ?? 'the device answered with an unknown error');
  if (answer[0] !== ((opCode | 0x80) & 0xff))
    throw new ExchangeFailure('the device answered another command');
  return answer;
}

/** The settings a write changed, as the form shows them: what the history records. */
function changesBetween(
  product: CatalogueProduct,
  groups: readonly FormGroupModel[],
  before: DecodedConfig,
  after: DecodedConfig,
): ConfigChange[] {
  const choices = settingChoices(product.config);
  const changes: ConfigChange[] = [];
  for (const field of templatableFields(groups).values()) {
    const oldValue = shownValue(choices[field.name], before.values[field.name]);
    const newValue = shownValue(choices[field.name], after.values[field.name]);
    if (oldValue !== newValue)
      changes.push({
        field: field.name,
        label: field.label.slice(0, 200),
        oldValue: oldValue.slice(0, 200),
        newValue: newValue.slice(0, 200),
      });
  }
  return changes;
}

const result = (
  serial: string,
  outcome: DeviceApplyResult['outcome'],
  reason: string | null,
  changes: ConfigChange[] = [],
): DeviceApplyResult => ({ serial, outcome, reason, changes });

/**
 * Apply a template to one device online, as the app does over Bluetooth: read its configuration,
 * check the template against the device's form (refused, naming each setting, before anything
 * is written), write only what differs, read back and compare byte for byte, and record the
 * write in the configuration history with the template's name.
 */
export async function applyToDevice(
  ctx: ServerContext,
  codec: Codec,
  product: CatalogueProduct,
  sender: Principal,
  device: DeviceRights,
  template: ApplyingTemplate,
  password: string | undefined,
): Promise<DeviceApplyResult> {
  const { serial } = device;
  if (device.modelId !== template.modelId)
    return result(
      serial,
      'refused',
      `${serial} is a ${device.modelId}; the template is for the ${template.modelId}`,
    );
  const run: RunContext = { ctx, codec, product, sender, device };
  const { config } = product;
  let stage = 'reading its configuration';
  try {
    const read = await exchange(run, STANDARD_COMMANDS.readConfiguration);
    const before = decodeConfiguration(codec, config, read);
    const groups = buildForm(config, before, { excludedGroups: EXCLUDED_GROUPS });
    const problems = checkTemplate(groups, template.settings);
    if (problems.length > 0)
      return result(serial, 'refused', `nothing was written: ${problems.map((p) => p.message).join('; ')}`);
    if (templateDiff(config, groups, template.settings, before.values).length === 0)
      return result(serial, 'already_equal', null);
    const writeOp = product.entry.commands.find(
      (c) => c.name === STANDARD_COMMANDS.writeConfiguration,
    )?.opCode;
    if (writeOp === undefined)
      return result(
        serial,
        'refused',
        `the ${product.modelId} has no "${STANDARD_COMMANDS.writeConfiguration}" command`,
      );
    const encoded = encodeConfiguration(
      codec,
      config,
      groups,
      templateWriteValues(groups, template.settings),
      read,
      {
        opcode: writeOp,
      },
    );
    if (!encoded.ok)
      return result(
        serial,
        'refused',
        `nothing was written: ${encoded.errors.map((e) => e.message).join('; ')}`,
      );
    if (differingSettings(config, read, encoded.frame).length === 0)
      return result(serial, 'already_equal', null);
    if (password !== undefined) {
      stage = 'giving its password';
      const answer = await exchange(
        run,
        STANDARD_COMMANDS.checkPassword,
        Uint8Array.from(codec.passwordCodes(password)),
      );
      if (answer[1] !== 0x01) return result(serial, 'failed', 'the password was wrong; nothing was written');
    }
    stage = 'writing';
    await sendFrame(run, encoded.frame, writeOp);
    stage = 'reading it back';
    const back = await exchange(run, STANDARD_COMMANDS.readConfiguration);
    const differing = differingSettings(config, encoded.frame, back);
    if (differing.length > 0)
      return result(
        serial,
        'failed',
        `the device holds other values than were written (${differing.join(', ')})`,
      );
    const changes = changesBetween(product, groups, before, decodeConfiguration(codec, config, back));
    if (changes.length > 0) {
      const id = randomUUID();
      await ctx.db.transaction().execute(async (trx) => {
        const stored = await sql<{ written_at: Date }>`
          INSERT INTO config_history (id, serial, user_id, user_email, transport, template_name, written_at, changes)
          VALUES (${id}, ${serial}, ${sender.id}, ${sender.email}, 'service-comms', ${template.name},
                  now(), ${JSON.stringify(changes)}::jsonb)
          RETURNING written_at`.execute(trx);
        await emitConfigurationWritten(trx, serial, {
          id,
          writtenAt: new Date(stored.rows[0]?.written_at ?? Date.now()).toISOString(),
          transport: 'service-comms',
          template: template.name,
          changes,
        });
      });
      ctx.webhooks.sender.kick();
    }
    return result(serial, 'written', null, changes);
  } catch (error) {
    if (!(error instanceof ExchangeFailure)) throw error;
    const kept = stage === 'writing' || stage === 'reading it back' ? '' : '; nothing was written';
    return result(serial, 'failed', `${stage}: ${error.message}${kept}`);
  }
}
