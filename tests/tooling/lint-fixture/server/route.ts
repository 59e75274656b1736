// The server reaching into the app's views; its import of the framework-free codec passes.
import { shape } from '../contracts/shape.ts';
import { codecName } from '../src/codec/codec.ts';
import { label } from '../src/components/label.ts';

export const route = () => label(`${shape.name} ${codecName}`);
