import { fromPromise } from 'xstate';
import type { ProvisioningAnswer } from '../../../../contracts/claims.ts';
import type { ConfigTemplate } from '../../../../contracts/config-templates.ts';
import type { TemplateChange } from '../../../../machines/ble/templates-machine.ts';
import type { ApiClient } from '../../../api/api-client.ts';
import {
  createTemplate,
  deleteTemplate,
  fetchTemplates,
  issueProvisioning,
  updateTemplate,
} from '../../../api/commissioning-api.ts';
import { createConfigHistoryActors, historyQueueFor } from './config-history-actors.ts';

/** The settings templates' actors over the configuration service (the company's list of a product). */
function createTemplatesActors(api: ApiClient) {
  return {
    loadTemplates: fromPromise<ConfigTemplate[], { modelId: string }>(({ input }) =>
      fetchTemplates(api, input.modelId),
    ),
    changeTemplates: fromPromise<unknown, { modelId: string; change: TemplateChange }>(({ input }) => {
      const { change } = input;
      if (change.kind === 'create')
        return createTemplate(api, { name: change.name, modelId: input.modelId, settings: change.settings });
      if (change.kind === 'rename') return updateTemplate(api, change.id, { name: change.name });
      return deleteTemplate(api, change.id);
    }),
  };
}

/**
 * What a Configure panel's session does only signed in, over the configuration service: the
 * device's configuration history, the company's settings templates and the secret a device is
 * provisioned with. A module of its own, with
 * the service's schemas, which the panel loads only for someone signed in: the open device page
 * never needs them.
 * @example configureSessionFor({ codec, product, signedIn: signedInActors(configApi) })
 */
export function signedInActors(
  configApi: ApiClient,
  onlineEvents: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
) {
  return {
    history: createConfigHistoryActors(configApi, historyQueueFor(configApi), onlineEvents),
    templates: createTemplatesActors(configApi),
    provision: {
      issue: fromPromise<ProvisioningAnswer, { serial: string }>(({ input }) =>
        issueProvisioning(configApi, input.serial),
      ),
    },
  };
}

export type SignedInActors = ReturnType<typeof signedInActors>;
