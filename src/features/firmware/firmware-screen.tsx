import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconPlayerPlay, IconRefresh, IconUpload } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { fromPromise } from 'xstate';
import {
  type FirmwareChannel,
  type FirmwareImageInfo,
  firmwareChannelSchema,
  ROLLOUT_MAX_DEVICES,
  ROLLOUT_MAX_WINDOW_HOURS,
  type RolloutCreate,
  type RolloutSummary,
} from '../../../contracts/firmware.ts';
import { catalogueModels, e1CatalogueModels } from '../../../machines/catalogue/catalogue-selectors.ts';
import {
  type FirmwareFailure,
  type FirmwareUpload,
  firmwarePageMachine,
} from '../../../machines/firmware/firmware-page-machine.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { type Column, DataList } from '../../components/lists/data-list.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import {
  ROLLOUT_TARGETS,
  type RolloutTarget,
  rolloutRequestOf,
  START_FORM,
  type StartForm as StartValues,
  startFormSchema,
  type UploadForm as UploadValues,
  uploadFormSchema,
} from './firmware-forms.ts';
import {
  fetchAllImages,
  fetchRollouts,
  ROLLOUTS_LISTED,
  startRollout,
  uploadImage,
} from './firmware-page-api.ts';
import { formatSize, loadNumber, RolloutProgress, RolloutStateBadge } from './rollout-labels.tsx';

const route = getRouteApi('/_shell/firmware');

/** The page's machine, its actors calling the configuration service; a started rollout is opened. */
function useFirmwarePage() {
  const { configApi } = useRuntime();
  const { images, rollouts } = route.useLoaderData();
  const navigate = route.useNavigate();
  return useActorRef(
    firmwarePageMachine.provide({
      actors: {
        lists: fromPromise(async ({ signal }) => {
          const [images, rollouts] = await Promise.all([
            fetchAllImages(configApi, signal),
            fetchRollouts(configApi, signal),
          ]);
          return { images, rollouts };
        }),
        upload: fromPromise(({ input, signal }: { input: FirmwareUpload; signal: AbortSignal }) =>
          uploadImage(configApi, input, signal),
        ),
        start: fromPromise(({ input, signal }: { input: RolloutCreate; signal: AbortSignal }) =>
          startRollout(configApi, input, signal),
        ),
      },
      actions: {
        openRollout: ({ context }) => {
          if (context.started !== null)
            void navigate({
              to: '/firmware-rollouts/$rolloutid',
              params: { rolloutid: String(context.started) },
            });
        },
      },
    }),
    { input: { images, rollouts } },
  );
}

type PageRef = ReturnType<typeof useFirmwarePage>;

const CHANNEL_LABEL: Record<FirmwareChannel, string> = { stable: 'Stable', beta: 'Beta' };

/** A refusal in plain words: a refused image says so, then the service's reason. */
const refusal = (failure: FirmwareFailure | null) =>
  failure === null
    ? null
    : failure.code === 'firmware_invalid'
      ? `The image was refused: ${failure.message}`
      : failure.message;

/**
 * Firmware (company staff and admins): every image by model with an upload (staff), the newest
 * rollouts with their progress, and a dialog that starts one. Behaviour is the page's machine's;
 * this only renders it.
 */
export function FirmwareScreen() {
  // The machine starts from what the loader read: when the router reads the page again (a visit
  // after a rollout was started shows the cached lists first), it starts again from the new lists.
  const data = route.useLoaderData();
  return <FirmwarePage key={loadNumber(data)} />;
}

function FirmwarePage() {
  const { mayUpload } = route.useLoaderData();
  const actor = useFirmwarePage();
  const images = useSelector(actor, (s) => s.context.images);
  const rollouts = useSelector(actor, (s) => s.context.rollouts);
  const uploaded = useSelector(actor, (s) => s.context.uploaded);
  const listError = useSelector(actor, (s) => s.context.listError);
  const refreshing = useSelector(actor, (s) => s.matches('refreshing'));
  const canUpload = useSelector(actor, (s) => s.can({ type: 'firmware.upload.open' }));
  const canStart = useSelector(actor, (s) => s.can({ type: 'firmware.start.open' }));
  const canRefresh = useSelector(actor, (s) => s.can({ type: 'firmware.refresh' }));
  return (
    <Stack gap="md">
      <ScreenHeader
        title="Firmware"
        description="Signed firmware images for each model, and rollouts that update devices over their connection: a canary first, then waves, stopping by themselves past their failure limit."
        actions={
          <Group gap="sm">
            {mayUpload ? (
              <Button
                leftSection={<IconUpload size={16} aria-hidden />}
                disabled={!canUpload}
                onClick={() => actor.send({ type: 'firmware.upload.open' })}
              >
                Upload image
              </Button>
            ) : null}
            <Button
              variant="light"
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
              disabled={!canStart || images.length === 0}
              onClick={() => actor.send({ type: 'firmware.start.open' })}
            >
              Start rollout
            </Button>
          </Group>
        }
      />
      {uploaded ? (
        <Alert color="teal" role="status" title="Image uploaded">
          {uploaded.modelId} {uploaded.version} ({CHANNEL_LABEL[uploaded.channel]}) is ready to roll out.
        </Alert>
      ) : null}
      {listError ? (
        <Alert color="red" role="alert" title="The lists could not be read again">
          {listError}
        </Alert>
      ) : null}
      <ImagesSection images={images} actor={actor} mayUpload={mayUpload} />
      <SectionCard title="Rollouts">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed">
              The {ROLLOUTS_LISTED} newest, newest first.
            </Text>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconRefresh size={14} aria-hidden />}
              loading={refreshing}
              disabled={!canRefresh}
              onClick={() => actor.send({ type: 'firmware.refresh' })}
            >
              Refresh
            </Button>
          </Group>
          {rollouts.length === 0 ? (
            <EmptyState title="No rollouts yet">
              Start one to update a set of devices, a site's devices or every device of a model.
            </EmptyState>
          ) : (
            <DataList label="Rollouts" columns={ROLLOUT_COLUMNS} rows={rollouts} rowKey={(r) => r.id} />
          )}
        </Stack>
      </SectionCard>
      <UploadDialog actor={actor} />
      <StartDialog actor={actor} />
    </Stack>
  );
}

const ROLLOUT_COLUMNS: Column<RolloutSummary>[] = [
  {
    key: 'rollout',
    header: 'Rollout',
    text: (r) => `#${r.id} ${r.modelId} ${r.version}`,
    render: (r) => (
      <Anchor
        component={Link}
        to="/firmware-rollouts/$rolloutid"
        params={{ rolloutid: String(r.id) } as never}
      >
        #{r.id} · {r.modelId} {r.version}
      </Anchor>
    ),
  },
  {
    key: 'state',
    header: 'State',
    text: (r) => r.state,
    render: (r) => <RolloutStateBadge state={r.state} />,
  },
  {
    key: 'progress',
    header: 'Progress',
    text: (r) => `${r.counts.confirmed} of ${r.devices}`,
    render: (r) => <RolloutProgress counts={r.counts} devices={r.devices} />,
  },
  { key: 'started', header: 'Started', text: (r) => formatDateTime(r.createdAt) },
];

function ImagesSection({
  images,
  actor,
  mayUpload,
}: {
  images: FirmwareImageInfo[];
  actor: PageRef;
  mayUpload: boolean;
}) {
  const modelName = useModelName();
  const canStart = useSelector(actor, (s) => s.can({ type: 'firmware.start.open' }));
  const models = [...new Set(images.map((image) => image.modelId))].sort();
  const columns: Column<FirmwareImageInfo>[] = [
    { key: 'version', header: 'Version', text: (i) => i.version },
    { key: 'channel', header: 'Channel', text: (i) => CHANNEL_LABEL[i.channel] },
    { key: 'size', header: 'Size', text: (i) => formatSize(i.size) },
    { key: 'uploaded', header: 'Uploaded', text: (i) => formatDateTime(i.uploadedAt) },
    {
      key: 'action',
      header: 'Roll out',
      text: () => '',
      render: (i) => (
        <Button
          variant="default"
          size="xs"
          disabled={!canStart}
          aria-label={`Roll out ${i.modelId} ${i.version}`}
          onClick={() => actor.send({ type: 'firmware.start.open', firmwareId: i.id })}
        >
          Roll out
        </Button>
      ),
    },
  ];
  return (
    <SectionCard title="Images">
      {images.length === 0 ? (
        <EmptyState title="No firmware images yet">
          {mayUpload
            ? 'Upload a signed image (npm run firmware:sign builds one) to roll it out.'
            : 'Company staff upload signed images; they show here once uploaded.'}
        </EmptyState>
      ) : (
        <Stack gap="lg">
          {models.map((model) => (
            <Stack key={model} gap={4}>
              <Text fw={600} component="h3" m={0}>
                {modelName(model)}{' '}
                <Text span c="dimmed" size="sm">
                  ({model})
                </Text>
              </Text>
              <DataList
                label={`Images for ${model}`}
                columns={columns}
                rows={images.filter((image) => image.modelId === model)}
                rowKey={(i) => i.id}
              />
            </Stack>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}

/** The upload dialog, with a fresh form each time it opens. */
function UploadDialog({ actor }: { actor: PageRef }) {
  const open = useSelector(actor, (s) => s.matches('uploading'));
  return open ? <UploadForm actor={actor} /> : null;
}

function UploadForm({ actor }: { actor: PageRef }) {
  const sending = useSelector(actor, (s) => s.matches({ uploading: 'sending' }));
  const error = useSelector(actor, (s) => refusal(s.context.uploadError));
  const { catalogue } = useRuntime();
  const models = useSelector(catalogue, catalogueModels);
  const e1Models = useSelector(catalogue, e1CatalogueModels);
  const choices = Object.entries({ ...(e1Models ?? {}), ...(models ?? {}) })
    .map(([id, model]) => ({ value: id, label: `${model.name} (${id})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const form = useForm<UploadValues>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: { file: null, model: '', channel: 'stable' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(({ file, model, channel }) => {
    if (!file) return;
    actor.send({ type: 'firmware.upload', upload: { file, fileName: file.name, model, channel } });
  });
  const close = () => actor.send({ type: 'firmware.close' });
  return (
    <FormDialog
      title="Upload a firmware image"
      size="lg"
      onClose={close}
      onSubmit={submit}
      busy={sending}
      error={error}
      errorTitle="The image was not uploaded"
      submitLabel="Upload"
    >
      <Text size="sm" c="dimmed">
        An MCUboot image signed with a key the devices trust. The service checks its hash, its signature and
        that it is for the model chosen; nothing is stored when it refuses.
      </Text>
      <Controller
        control={form.control}
        name="file"
        render={({ field }) => (
          <FileInput
            label="Image file"
            placeholder="Choose a .bin file"
            accept=".bin,.img,.signed,application/octet-stream"
            required
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            value={field.value}
            onChange={(file) => field.onChange(file)}
            onBlur={field.onBlur}
            error={errors.file?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="model"
        render={({ field }) => (
          <Select
            label="Model"
            placeholder="The model the image is for"
            required
            searchable
            data={choices}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            onBlur={field.onBlur}
            error={errors.model?.message}
            nothingFoundMessage="No such model in the catalogue"
          />
        )}
      />
      <Controller
        control={form.control}
        name="channel"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="upload-channel">
              Channel
            </Text>
            <SegmentedControl
              aria-labelledby="upload-channel"
              data={firmwareChannelSchema.options.map((value) => ({
                value,
                label: CHANNEL_LABEL[value],
              }))}
              value={field.value}
              onChange={(value) => field.onChange(value)}
            />
          </Stack>
        )}
      />
    </FormDialog>
  );
}

const TARGET_LABEL: Record<RolloutTarget, string> = {
  serials: 'Serial numbers',
  site: 'A site',
  model: 'Every device of the model',
};

/** The start dialog, with a fresh form (and the image whose "Roll out" opened it) each time. */
function StartDialog({ actor }: { actor: PageRef }) {
  const open = useSelector(actor, (s) => s.matches('starting'));
  return open ? <StartForm actor={actor} /> : null;
}

function StartForm({ actor }: { actor: PageRef }) {
  const { sites } = route.useLoaderData();
  const sending = useSelector(actor, (s) => s.matches({ starting: 'sending' }));
  const images = useSelector(actor, (s) => s.context.images);
  const startWith = useSelector(actor, (s) => s.context.startWith);
  const error = useSelector(actor, (s) => refusal(s.context.startError));
  const targetId = useId();
  const form = useForm<StartValues>({
    resolver: zodResolver(startFormSchema),
    defaultValues: { ...START_FORM, firmwareId: startWith === null ? '' : String(startWith) },
  });
  const errors = form.formState.errors;
  const target = form.watch('target');
  const submit = form.handleSubmit((values) => {
    actor.send({ type: 'firmware.start', request: rolloutRequestOf(values) });
  });
  const close = () => actor.send({ type: 'firmware.close' });
  const count = (
    name: 'canary' | 'waveSize' | 'maxFailures' | 'windowHours',
    label: string,
    description: string,
    min: number,
    max = ROLLOUT_MAX_DEVICES,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          description={description}
          required
          min={min}
          max={max}
          allowDecimal={false}
          allowNegative={false}
          value={field.value}
          onChange={(value) => field.onChange(value === '' ? '' : Number(value))}
          onBlur={field.onBlur}
          error={errors[name]?.message}
        />
      )}
    />
  );
  return (
    <FormDialog
      title="Start a rollout"
      size="lg"
      onClose={close}
      onSubmit={submit}
      busy={sending}
      error={error}
      errorTitle="The rollout was not started"
      submitLabel="Start rollout"
    >
      <Controller
        control={form.control}
        name="firmwareId"
        render={({ field }) => (
          <Select
            label="Image"
            placeholder="The image to roll out"
            required
            data={images.map((i) => ({
              value: String(i.id),
              label: `${i.modelId} ${i.version} (${CHANNEL_LABEL[i.channel]})`,
            }))}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            onBlur={field.onBlur}
            error={errors.firmwareId?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="target"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500} id={targetId}>
              Devices
            </Text>
            <SegmentedControl
              aria-labelledby={targetId}
              fullWidth
              orientation="horizontal"
              data={ROLLOUT_TARGETS.map((value) => ({ value, label: TARGET_LABEL[value] }))}
              value={field.value}
              onChange={(value) => field.onChange(value)}
              styles={{ label: { whiteSpace: 'normal' } }}
            />
          </Stack>
        )}
      />
      {target === 'serials' ? (
        <Textarea
          label="Serial numbers"
          description="One per line, or separated by commas. Each must be of the image's model."
          placeholder="HX5K-24-000123"
          autosize
          minRows={3}
          maxRows={8}
          required
          {...fieldProps(form, 'serials')}
        />
      ) : null}
      {target === 'site' ? (
        <Controller
          control={form.control}
          name="siteId"
          render={({ field }) => (
            <Select
              label="Site"
              description="The site's devices of the image's model."
              placeholder={sites === null ? 'The sites could not be read' : 'Choose a site'}
              required
              searchable
              data={(sites?.sites ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
              value={field.value}
              onChange={(value) => field.onChange(value)}
              onBlur={field.onBlur}
              error={errors.siteId?.message}
              nothingFoundMessage="No site by that name"
            />
          )}
        />
      ) : null}
      {target === 'model' ? (
        <Text size="sm" c="dimmed">
          Every device of the image's model that you may update, in serial order.
        </Text>
      ) : null}
      <Group grow align="flex-start" wrap="wrap">
        {count('canary', 'Canary', 'Devices updated first, alone', 1)}
        {count('waveSize', 'Wave size', 'Devices per later wave', 1)}
        {count('maxFailures', 'Failure limit', 'Stops past this many', 0)}
        {count(
          'windowHours',
          'Window (hours)',
          'Offline devices are waited for',
          1,
          ROLLOUT_MAX_WINDOW_HOURS,
        )}
      </Group>
    </FormDialog>
  );
}
