// Allowed: contracts and the framework-free libraries under src/. Forbidden: the app.
import { shape } from '../../contracts/shape.ts';
import { codecName } from '../../src/codec/codec.ts';
import { alphaCall } from '../../src/features/alpha/alpha-api.ts';

export const thing = () => [shape.name, codecName, alphaCall()];
