import { useSelector } from '@xstate/react';
import { ownValue } from '../../../contracts/own-value.ts';
import { catalogueModels, e1CatalogueModels } from '../../../machines/catalogue/catalogue-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';

/** Model id → display name from the catalogue the app keeps (both lists); the id when unknown. */
export function useModelName(): (modelId: string) => string {
  const { catalogue } = useRuntime();
  const models = useSelector(catalogue, catalogueModels);
  const e1Models = useSelector(catalogue, e1CatalogueModels);
  return (modelId) => ownValue(models, modelId)?.name ?? ownValue(e1Models, modelId)?.name ?? modelId;
}
