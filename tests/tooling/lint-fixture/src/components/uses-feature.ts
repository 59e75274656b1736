// A shared component that reaches into a feature.
import { alphaCall } from '../features/alpha/alpha-api.ts';

export const usesFeature = () => alphaCall();
