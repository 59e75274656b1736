// The server reaching into the app.
import { shape } from '../contracts/shape.ts';
import { codecName } from '../src/codec/codec.ts';

export const route = () => `${shape.name} ${codecName}`;
